"""Type hints for the tigadi package (the extension module tigadi._tigadi)."""

import os
from typing import Any, Dict, Iterable, List, Literal, Optional, Union

Value = Literal["win", "draw", "loss"]
Side = Literal["B", "S"]

class TablebaseError(Exception):
    """A table could not be found, read or trusted (also I/O errors)."""

class MissingTableError(TablebaseError):
    """No table file for the position's subspace in the tablebase directory."""

class CorruptTableError(TablebaseError):
    """A table file failed a checksum, is malformed, or belongs to another rule
    set or subspace."""

class Position:
    """A Tigadi position under a rule set. Immutable and hashable.

    ``Position(text, rules=...)`` parses ``RANKS SIDE [BONE_HAND SEED_HAND
    [QUIET_TURNS]]`` (docs/RULES.md §9) under rule set ``rules`` (hands of at most
    its gotis per side, and so on); ``Position(rules=...)`` is the start of a game
    under it (``Position.start``). Raises ValueError naming the problem for a bad
    string or rule set.
    """

    def __init__(self, text: Optional[str] = None, rules: str = "tigadi") -> None: ...
    @classmethod
    def start(cls, rules: str = "tigadi") -> "Position":
        """The start of a game under ``rules``: the empty board, Bone to move, each
        player holding the rule set's gotis (".../.../.../....../.../.../... B 9 9"
        for tigadi)."""
    @property
    def rules(self) -> str:
        """The rule set's canonical name."""
    @property
    def side(self) -> Side:
        """The player to move: "B" (Bone) or "S" (Seed)."""
    @property
    def phase(self) -> Literal["placing", "moving"]:
        """"placing" while the player to move holds gotis in hand."""
    @property
    def bone(self) -> List[str]:
        """Points holding Bone gotis, e.g. ["a7", "d7"]."""
    @property
    def seed(self) -> List[str]:
        """Points holding Seed gotis."""
    @property
    def bone_hand(self) -> int:
        """Bone's gotis in hand."""
    @property
    def seed_hand(self) -> int:
        """Seed's gotis in hand."""
    @property
    def quiet_turns(self) -> int:
        """Turns since the last capture (the 100-turn counter)."""
    @property
    def winner(self) -> Optional[Side]:
        """The winner when the game is already decided here, else None."""
    def legal_moves(self) -> List[str]:
        """Every legal move in notation ("d5", "a1-a4", "a1-a4xg7", "pass")."""
    def play(self, move: str) -> "Position":
        """The position after ``move`` (a new Position; this one is unchanged).
        Raises ValueError naming the problem for a bad or illegal move."""
    def diagram(self) -> str:
        """The board drawn as text."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

Category = Literal["win", "cursed-win", "draw", "blessed-loss", "loss"]

class ProbeMove:
    """One legal move of a probed position with the values it leads to."""

    @property
    def move(self) -> str:
        """The move in notation."""
    @property
    def value(self) -> Value:
        """The outcome for the player to move if they play this move."""
    @property
    def dtc(self) -> Optional[int]:
        """Turns to the next capture counted from the probed position; None for a draw."""
    @property
    def category(self) -> Optional[Category]:
        """The class under the 100-turn rule; None without the horizon tables."""
    @property
    def rule_value(self) -> Optional[Value]:
        """The value under the 100-turn rule at the probed position's counter;
        None without the horizon tables."""
    @property
    def dtc100(self) -> Optional[int]:
        """Turns within which the win or loss is forced under the 100-turn rule;
        None for a draw under it, without the horizon tables, or under Lasker's
        rule (see ``dtz100``)."""
    @property
    def dtz100(self) -> Optional[int]:
        """Under Lasker's rule: turns within which the win or loss is forced under
        the 100-turn rule, counted to the next capture or placement (DTZ₁₀₀);
        None for a draw under it, without the horizon tables, or under other rule
        sets (see ``dtc100``)."""
    @property
    def dtw(self) -> Optional[int]:
        """Depth to win: turns to the end of the game counted from the probed
        position; None for a draw or without the DTW tables."""

class Probe:
    """The answer for one position (the Rust prober's one door,
    ``Tablebase::answer``): the fields of ``tigadi probe --json``."""

    @property
    def position(self) -> str:
        """The probed position: the string as given, or a Position's own."""
    @property
    def quiet_turns(self) -> int:
        """The probed position's 100-turn counter."""
    @property
    def value(self) -> Value:
        """Win, draw or loss for the player to move (100-turn rule ignored); for
        a finished game, its result."""
    @property
    def dtc(self) -> Optional[int]:
        """Depth to capture in turns; None for a draw or a finished game."""
    @property
    def category(self) -> Optional[Category]:
        """The class under the 100-turn rule; None without the horizon tables or
        for a finished game."""
    @property
    def rule_value(self) -> Optional[Value]:
        """The value under the 100-turn rule at the position's counter; None
        without the horizon tables; a finished game's result."""
    @property
    def dtc100(self) -> Optional[int]:
        """DTC under the 100-turn rule (from counter 0); None for a draw under it,
        without the horizon tables, for a finished game, or under Lasker's rule
        (see ``dtz100``)."""
    @property
    def dtz100(self) -> Optional[int]:
        """Under Lasker's rule: DTZ₁₀₀, the depth under the 100-turn rule counted
        to the next capture or placement (from counter 0); None for a draw under
        it, without the horizon tables, for a finished game, or under other rule
        sets (see ``dtc100``)."""
    @property
    def dtw(self) -> Optional[int]:
        """Depth to win: turns to the end of the game under perfect play; None
        for a draw, a finished game, or without the DTW tables."""
    @property
    def game_over(self) -> Optional[Dict[str, str]]:
        """How the game already ended here (blocked where that loses, or the
        100-turn draw): {"state", "winner", "reason", "text"}; None in play."""
    @property
    def moves(self) -> Optional[List[ProbeMove]]:
        """Every legal move, best first (by the value under the 100-turn rule
        where the horizon tables exist, as ``tigadi probe``); None when probed
        with moves=False; empty for a finished game."""
    def to_dict(self) -> Dict[str, Any]:
        """``json.loads`` of ``tigadi probe --json`` for this position (without
        "moves" when probed with moves=False)."""

PositionLike = Union[str, Position]

class Tablebase:
    """The tablebase of one rule set in a directory (files in DIRECTORY/<rules>/).

    Tables open lazily; probing is thread-safe. Raises ValueError for an unknown
    rule set.
    """

    def __init__(self, directory: Union[str, "os.PathLike[str]"], rules: str = "tigadi") -> None: ...
    @property
    def rules(self) -> str:
        """The rule set's canonical name."""
    @property
    def directory(self) -> "os.PathLike[str]":
        """The tablebase directory (a pathlib.Path)."""
    def probe(self, position: PositionLike) -> Probe:
        """Value, DTC and every move's value of a position of either phase.

        A string is parsed under the tablebase's rule set; a Position must be of
        that rule set. A placing position is answered from the placing tables,
        its moves being every placement with each capture choice ("d7",
        "d7xg1"). Raises ValueError naming the problem for a bad string, a
        position no game under the rule set reaches, or a Position of another
        rule set; MissingTableError / CorruptTableError for absent or damaged
        tables.
        """
    def probe_wdl(self, position: PositionLike) -> Value:
        """probe(position).value, reading only the cheaper WDL section for a
        moving-phase position in play."""
    def probe_many(self, positions: Iterable[PositionLike], *, moves: bool = True) -> List[Probe]:
        """probe for every position, in order, in parallel with the GIL released.

        With moves=False each Probe's moves is None. The first failing position
        raises as probe would, its message starting "positions[i]: ".
        """
