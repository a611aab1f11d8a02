"""Deals: the notation of docs/rules.md, the documented shuffle, and deal codes.

**Notation.** 52 card tokens (48 for the Spanish deck) separated by white space: the pyramid row by row
from the apex, then the reserve piles if the rule set has them (pile by pile, each from its bottom card
up), then the rest of the deck in dealing order, the first to be dealt first.

**Shuffle** (version 1; see ``docs/deals.md``).  Deal number ``n`` seeds a SplitMix64 generator with
``n`` xor a fixed salt; a Fisher–Yates shuffle of the plain deck order (clubs, diamonds, hearts, spades,
each ace to king) draws each index ``j <= i`` by rejection sampling, so the result depends on nothing
but ``n`` and the deck size — never on Python's ``random`` module, whose algorithms may change.

**Codes.**  ``CL1-N-AAAAAAB``: the rule set (two letters and a version digit, then any options that
differ from the preset, each a letter and a number), a difficulty letter (``E`` easy, ``N`` normal,
``R`` random), and the deal number in seven letters, base 26, ``A`` = 0.  A *full code*
``CL1-X-…`` replaces the number by the rank of the whole permutation (48 letters for 52 cards), so any
deal — a custom one too — has a code.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Final

from .cards import Card, CardError, full_deck, spanish_deck
from .messages import Problem, text
from .rule_strings import find_rules
from .rules import OPTIONS, PRESET_CODES, PRESET_VERSIONS, PRESETS, Rules, RulesError

SHUFFLE_VERSION: Final = 1
_SALT: Final = 0x5059_5241_4D49_4431  # "PYRAMID1"
_MASK64: Final = (1 << 64) - 1
NUMBER_LETTERS: Final = 7
ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_NUMBER: Final = len(ALPHABET) ** NUMBER_LETTERS - 1
DIFFICULTIES: Final = {"E": "easy", "N": "normal", "R": "random"}
FULL_CODE_LETTER: Final = "X"


class DealError(Problem, ValueError):
    """A deal that cannot be: wrong count, missing, repeated or unknown cards."""


class CodeError(DealError):
    """A deal code that names no deal."""


class CodeProblem(Problem):
    """A part of a message about a code: the name of one of its parts (rule set, difficulty, number)."""


class CardsError(DealError):
    """Cards that are not the deck: the wrong count, repeated cards, missing cards — each said that is so."""

    def __init__(self, expected: int, got: int, repeated: list[Card], missing: list[Card]) -> None:
        checks: tuple[tuple[str, list[Card], bool], ...] = (
            ("deal.count", [], expected != got),
            ("deal.repeated", repeated, bool(repeated)),
            ("deal.missing", missing, bool(missing)),
        )
        self.parts = [
            Problem(key, expected=expected, got=got, cards=" ".join(str(c) for c in cards))
            for key, cards, wrong in checks
            if wrong
        ]
        super().__init__("deal.cards", expected=expected, got=got)

    def message(self, lang: str) -> str:
        return text(lang, "parts_sep").join(part.message(lang) for part in self.parts)


def deck_for(rules: Rules) -> tuple[Card, ...]:
    """The plain-order deck the rule set plays with."""
    return full_deck() if rules.deck == len(full_deck()) else spanish_deck()


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014): small, fast and fully specified."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` by rejection sampling (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def shuffled_deck(number: int, deck: tuple[Card, ...]) -> tuple[Card, ...]:
    """Deal ``number`` of the documented shuffle (version 1)."""
    if not 0 <= number <= MAX_NUMBER:
        raise DealError("deal.number-range", most=MAX_NUMBER, number=number)
    cards = list(deck)
    rng = SplitMix64(number ^ _SALT)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def parse_cards(text: str, rules: Rules) -> tuple[Card, ...]:
    """Parse and validate deal notation for ``rules``' deck; raise :class:`DealError` naming the problem."""
    tokens = text.split()
    deck = deck_for(rules)
    cards: list[Card] = []
    for number, token in enumerate(tokens, start=1):
        try:
            card = Card.parse(token)
        except CardError as exc:
            raise DealError("deal.token", number=number, problem=exc) from None
        if card.is_joker:
            raise DealError("deal.joker", number=number)
        if card not in deck:
            raise DealError("deal.not-in-deck", number=number, card=str(card), deck=len(deck))
        cards.append(card)
    return check_cards(tuple(cards), rules)


def check_cards(cards: tuple[Card, ...], rules: Rules) -> tuple[Card, ...]:
    """``cards`` if they are exactly ``rules``' deck; else raise :class:`DealError` naming the problem."""
    deck = deck_for(rules)
    counts = Counter(cards)
    repeated = [card for card in deck if counts[card] > 1]
    missing = [card for card in deck if counts[card] == 0]
    if len(cards) != len(deck) or repeated or missing:
        raise CardsError(len(deck), len(cards), repeated, missing)
    return cards


@dataclass(frozen=True)
class Deal:
    """An immutable deal for one rule set: ``cards`` in notation order (pyramid, reserve, stock).

    ``number`` is the shuffle number when the deal came from one (``None`` for a custom deal), and
    ``difficulty`` the letter its code carries.
    """

    rules: Rules
    cards: tuple[Card, ...]
    number: int | None = None
    difficulty: str = "R"

    def __post_init__(self) -> None:
        check_cards(self.cards, self.rules)
        if self.difficulty not in DIFFICULTIES:
            raise CodeError("code.difficulty", letter=self.difficulty)

    @classmethod
    def from_notation(cls, text: str, rules: Rules | str = "classic") -> Deal:
        """Parse deal notation (see the module docstring)."""
        rules = find_rules(rules)
        cards = parse_cards(text, rules)
        number = None
        return cls(rules, cards, number, "R")

    @classmethod
    def from_number(cls, number: int, rules: Rules | str = "classic", difficulty: str = "R") -> Deal:
        """Deal ``number`` of the shuffle under ``rules``."""
        rules = find_rules(rules)
        return cls(rules, shuffled_deck(number, deck_for(rules)), number, difficulty)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """The deal a code names (short or full); raise :class:`CodeError` naming what is wrong."""
        return decode(code)

    @property
    def notation(self) -> str:
        """The deal as notation: canonical tokens separated by single spaces."""
        return " ".join(str(card) for card in self.cards)

    @property
    def pyramid(self) -> tuple[Card, ...]:
        """The pyramid cards, apex first."""
        return self.cards[: self.rules.pyramid_size]

    @property
    def reserve(self) -> tuple[Card, ...]:
        """The reserve cards (none without a reserve): pile by pile, each from its bottom card up."""
        return self.cards[self.rules.pyramid_size : self.rules.board_size]

    @property
    def stock(self) -> tuple[Card, ...]:
        """The other cards in dealing order (with ``waste_start`` the first goes to the waste)."""
        return self.cards[self.rules.board_size :]

    @functools.cached_property  # asked for by every state the page gets; a deal never changes
    def code(self) -> str:
        """The short code when the deal has a number, else the full code."""
        if self.number is None:
            return self.full_code
        return f"{rules_code(self.rules)}-{self.difficulty}-{number_letters(self.number)}"

    @property
    def full_code(self) -> str:
        """A code that spells out the whole permutation; works for any deal."""
        deck = deck_for(self.rules)
        rank = permutation_rank(self.cards, deck)
        return f"{rules_code(self.rules)}-{FULL_CODE_LETTER}-{_letters(rank, full_code_letters(len(deck)))}"

    def __str__(self) -> str:
        return self.code


# --- rule-set part of the code ---------------------------------------------------------------------

#: Option letters of the code's first group, in the order they are written (each option's letter is
#: one of its facts in rules.py).
_CODE_OPTIONS: Final = tuple((option.letter, name) for name, option in OPTIONS.items())
_PRESET_BY_CODE: Final = {code: name for name, code in PRESET_CODES.items()}


def _option_number(name: str, value: object) -> int:
    if value is None:  # unlimited passes or undo
        return 0
    if OPTIONS[name].words:
        return OPTIONS[name].words.index(str(value))
    if isinstance(value, bool):
        return int(value)
    assert isinstance(value, int)
    return value


def rules_code(rules: Rules) -> str:
    """``CL1``, ``TH1J2T1``: preset letters, version digit, then each option that differs from the preset."""
    base = PRESETS[rules.preset]
    text = f"{PRESET_CODES[rules.preset]}{PRESET_VERSIONS[rules.preset]}"
    for letter, name in _CODE_OPTIONS:
        value = getattr(rules, name)
        if value != getattr(base, name):
            text += f"{letter}{_option_number(name, value)}"
    return text


_RULES_CODE_RE: Final = re.compile(r"^([A-Z]{2})(\d)((?:[A-Z]\d+)*)$")


def parse_rules_code(text: str) -> Rules:
    """The rule set of a code's first group."""
    match = _RULES_CODE_RE.match(text)
    if not match:
        raise CodeError("code.rules-part", part=text)
    letters, version, options = match.groups()
    if letters not in _PRESET_BY_CODE:
        raise CodeError("code.unknown-rules", letters=letters, known=list(_PRESET_BY_CODE))
    name = _PRESET_BY_CODE[letters]
    if int(version) != PRESET_VERSIONS[name]:
        raise CodeError("code.version", letters=letters, version=version)
    fields = dict(_CODE_OPTIONS)
    base = PRESETS[name]
    changes: dict[str, object] = {}
    for letter, digits in re.findall(r"([A-Z])(\d+)", options):
        if letter not in fields:
            raise CodeError("code.option-letter", letter=letter)
        field_name = fields[letter]
        try:
            number = int(digits)
        except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
            raise CodeError("code.option-digits", letter=letter, digits=len(digits)) from None
        current = getattr(base, field_name)
        value: object
        words = OPTIONS[field_name].words
        if words:
            if number >= len(words):
                raise CodeError("code.scoring", number=number)
            value = words[number]
        elif isinstance(current, bool):
            if number > 1:
                raise CodeError("code.option-flag", letter=letter, number=number)
            value = bool(number)
        elif OPTIONS[field_name].unlimited and number == 0:
            value = None
        else:
            value = number
        changes[field_name] = value
    try:
        rules = base.with_options(**changes)
    except RulesError as exc:
        raise CodeError("code.options", problem=exc) from None
    if rules_code(rules) != text:
        raise CodeError("code.not-canonical", part=text, canonical=rules_code(rules))
    return rules


# --- numbers as letters and permutations as numbers --------------------------------------------------


def _letters(number: int, width: int) -> str:
    out = []
    for _ in range(width):
        number, digit = divmod(number, len(ALPHABET))
        out.append(ALPHABET[digit])
    if number:
        raise CodeError("code.number-too-large")
    return "".join(reversed(out))


def number_letters(number: int) -> str:
    """The letters of deal ``number`` in its short code (``CL1-R-AAAAAAH`` ends in deal 7's)."""
    return _letters(number, NUMBER_LETTERS)


def _number(letters: str) -> int:
    value = 0
    for char in letters:
        value = value * len(ALPHABET) + ALPHABET.index(char)
    return value


def full_code_letters(deck_size: int) -> int:
    """Letters needed to write any permutation of ``deck_size`` cards in base 26."""
    return math.ceil(math.log(math.factorial(deck_size)) / math.log(len(ALPHABET)) + 1e-12)


def permutation_rank(cards: tuple[Card, ...], deck: tuple[Card, ...]) -> int:
    """Lexicographic rank of ``cards`` among the permutations of ``deck`` (Lehmer code)."""
    remaining = list(deck)
    rank = 0
    for card in cards:
        index = remaining.index(card)
        rank = rank * len(remaining) + index
        remaining.pop(index)
    return rank


def permutation_unrank(rank: int, deck: tuple[Card, ...]) -> tuple[Card, ...]:
    """The permutation of ``deck`` with the given rank."""
    if not 0 <= rank < math.factorial(len(deck)):
        raise CodeError("code.full-range")
    digits = []
    for base in range(1, len(deck) + 1):
        rank, digit = divmod(rank, base)
        digits.append(digit)
    remaining = list(deck)
    return tuple(remaining.pop(digit) for digit in reversed(digits))


_CODE_RE: Final = re.compile(r"^([A-Z0-9]+)-([A-Z])-([A-Z]+)$")


_PART_RE: Final = (re.compile(r"^[A-Z0-9]+$"), re.compile(r"^[A-Z]$"), re.compile(r"^[A-Z]+$"))
_PART_NAMES: Final = ("rules", "difficulty", "number")


def _shape_problem(text: str) -> CodeError:
    """Why ``text`` does not have the shape of a code (rule set, difficulty, number, joined by "-"): which
    part is missing, empty or holds what it cannot."""
    if not text:
        return CodeError("code.empty")
    parts = text.upper().split("-")
    if len(parts) != len(_PART_NAMES):
        return CodeError("code.shape", code=text, parts=len(parts))
    for part, pattern, name in zip(parts, _PART_RE, _PART_NAMES, strict=True):
        if not part:
            return CodeError("code.part-empty", code=text, part=CodeProblem(f"code.part.{name}"))
        if not pattern.match(part):
            return CodeError("code.part-bad", code=text, part=CodeProblem(f"code.part.{name}"), text=part)
    return CodeError("code.shape", code=text, parts=len(parts))


def decode(code: str) -> Deal:
    """The deal a code names (see the module docstring)."""
    text = code.strip().upper()
    match = _CODE_RE.match(text)
    if not match:
        raise _shape_problem(code.strip())
    rules = parse_rules_code(match.group(1))
    kind, letters = match.group(2), match.group(3)
    deck = deck_for(rules)
    if kind == FULL_CODE_LETTER:
        width = full_code_letters(len(deck))
        if len(letters) != width:
            raise CodeError("code.full-width", code=code.strip(), width=width, count=len(letters))
        return Deal(rules, permutation_unrank(_number(letters), deck), None, "R")
    if kind not in DIFFICULTIES:
        raise CodeError("code.kind", letter=kind)
    if len(letters) != NUMBER_LETTERS:
        raise CodeError("code.number-width", code=code.strip(), width=NUMBER_LETTERS, count=len(letters))
    return Deal.from_number(_number(letters), rules, kind)


def parse_deal(text: str, rules: Rules | str | None = None) -> Deal:
    """A deal from a code or from notation.  With notation, ``rules`` (default ``classic``) applies;
    with a code, the code's rule set does and a different ``rules`` is an error."""
    stripped = text.strip()
    if _CODE_RE.match(stripped.upper()) and len(stripped.split()) == 1:
        deal = decode(stripped)
        if rules is not None and find_rules(rules) != deal.rules:
            raise CodeError("code.other-rules", code=stripped, rules=str(deal.rules), asked=str(find_rules(rules)))
        return deal
    return Deal.from_notation(stripped, rules if rules is not None else "classic")
