"""Tigadi from Python: positions in the notation of docs/RULES.md §9 and probing of
the tablebases that ``tigadi solve`` writes.

    import tigadi
    tb = tigadi.Tablebase("tablebases")      # rules="tigadi" by default
    p = tb.probe("BB./S../.../...S../.../.../SB. S")
    p.value, p.dtc                            # ("draw", None)
    [(m.move, m.value, m.dtc) for m in p.moves]   # best first
    p.to_dict()                               # json.loads of `tigadi probe --json`

``value`` and ``dtc`` are game-theoretic (the 100-turn rule is ignored) for the
player to move: ``"win"``, ``"draw"`` or ``"loss"``, with the DTC (depth to
capture, in turns) for a win or a loss and None for a draw. ``category``,
``rule_value`` and ``dtc100`` are the values under the 100-turn rule, None for
tables solved without them (``--no-horizon``).

A position string means a position only under a rule set: ``Position(text,
rules=...)`` parses under ``rules``, a string given to ``Tablebase.probe*`` under
the tablebase's, and a Position of one rule set is refused by a tablebase of
another. ``Position.start(rules=...)`` is the start of a game under a rule set.

The work is done by the Rust toolkit (``tigadi_rules`` for positions and moves,
``tigadi_tablebase`` for values); this package only passes calls through.
"""

from ._tigadi import (
    CorruptTableError,
    MissingTableError,
    Position,
    Probe,
    ProbeMove,
    Tablebase,
    TablebaseError,
)

__all__ = [
    "CorruptTableError",
    "MissingTableError",
    "Position",
    "Probe",
    "ProbeMove",
    "Tablebase",
    "TablebaseError",
]
