"""Pyramid solitaire: every rule set of docs/rules.md, an exact solver, and front ends over one engine."""

from . import native as native  # first: importing it runs native.guard(), before any compiled module is imported
from .cards import Card, CardError
from .deal import CodeError, Deal, DealError, parse_deal
from .game import Game
from .moves import Move, MoveError
from .reasons import IllegalMoveError, Refusal
from .rule_strings import find_rules
from .rules import PRESETS, Rules, RulesError

__all__ = [
    "PRESETS",
    "Card",
    "CardError",
    "CodeError",
    "Deal",
    "DealError",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "Refusal",
    "Rules",
    "RulesError",
    "find_rules",
    "parse_deal",
]
__version__ = "0.1.0"
