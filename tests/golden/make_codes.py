"""Write tests/golden/codes.txt: deal codes and the exact deals they name (``CODE<TAB>NOTATION``).

The file pins the documented shuffle (version 1) and the deal-code format, so that a code once shared keeps
naming the same cards.  ONLY RERUN THIS SCRIPT IF THE SHUFFLE VERSION IS DELIBERATELY BUMPED (and the old
version is kept decodable); a failing golden test otherwise means the engine changed what a code names.

    .venv/bin/python tests/golden/make_codes.py
"""

from __future__ import annotations

from pathlib import Path

from pyramid_solitaire.cards import full_deck, spanish_deck
from pyramid_solitaire.deal import MAX_NUMBER, Deal

OUT = Path(__file__).with_name("codes.txt")

#: (rule set, difficulty letter, deal number) for short codes.
NUMBERED = [
    ("classic", "R", 0),
    ("classic", "R", 1),
    ("classic", "N", 18),
    ("classic", "E", 9),
    ("classic", "R", 123_456_789),
    ("classic", "R", MAX_NUMBER),
    ("classic", "N", MAX_NUMBER - 1),
    ("pyramide", "N", 18),
    ("pyramide", "N", 9),
    ("pyramide", "R", 0),
    ("pyramide", "E", 8_031_810_000),
    ("thirteen", "N", 1),
    ("thirteen", "R", 18),
    ("thirteen(jokers=2,triples=true)", "N", 9),
    ("thirteen(jokers=1)", "R", 5),
    ("thirteen(open=true)", "E", 0),
    ("msc", "R", 0),
    ("msc", "N", 18),
    ("msc", "E", 7_999_999_999),
    ("msc(strict=true)", "R", 3),
    ("traditional", "R", 1),
    ("traditional", "N", 9),
    ("relaxed", "R", 0),
    ("relaxed", "E", 18),
    ("classic(deck=48,target=12)", "N", 18),
    ("classic(deck=48,target=12)", "R", 1),
    ("classic(rows=6)", "R", 9),
    ("classic(passes=unlimited,overlap=true)", "N", 2),
    ("classic(target=14,lone_kings=false)", "E", 4),
]

#: The seed-000 example deal as docs/rules.md writes it (pyramid, waste card 7d, then the stock).
SEED_000_EXAMPLE = (
    "Jd 6c 7h As 4d Qs 5h 3d 6h 8s Kh Kc Ad Ks 9c Qc 2c 8d Td Ts Js 7c Tc 3h 4h 3s Kd 7s 7d Ac 3c 4c 5c 8c "
    "Jc 2d 5d 6d 9d Qd Ah 2h 8h 9h Th Jh Qh 2s 4s 5s 6s 9s"
)

#: (rule set, notation) for full codes of custom deals.
CUSTOM = [
    ("classic", " ".join(str(c) for c in full_deck())),
    ("classic", " ".join(str(c) for c in reversed(full_deck()))),
    ("pyramide", SEED_000_EXAMPLE),
    ("classic(deck=48,target=12)", " ".join(str(c) for c in reversed(spanish_deck()))),
]


def main() -> None:
    """Write the file."""
    lines = []
    for rules, difficulty, number in NUMBERED:
        deal = Deal.from_number(number, rules, difficulty)
        lines.append(f"{deal.code}\t{deal.notation}")
    for rules, notation in CUSTOM:
        deal = Deal.from_notation(notation, rules)
        lines.append(f"{deal.code}\t{deal.notation}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} lines to {OUT}")


if __name__ == "__main__":
    main()
