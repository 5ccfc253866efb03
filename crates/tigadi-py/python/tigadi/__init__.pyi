"""Type hints for the tigadi package (the extension module tigadi._tigadi)."""

import os
from typing import Iterable, List, Literal, Optional, Union

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

    ``Position(text)`` parses ``RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]``
    (docs/RULES.md §9); ``Position()`` is the empty board at the start of a game.
    Raises ValueError naming the problem for a bad string or rule set.
    """

    def __init__(self, text: Optional[str] = None, rules: str = "tigadi") -> None: ...
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

class ProbeMove:
    """One legal move of a probed position with the value it leads to."""

    @property
    def move(self) -> str:
        """The move in notation."""
    @property
    def value(self) -> Value:
        """The outcome for the player to move if they play this move."""
    @property
    def dtc(self) -> Optional[int]:
        """Turns to the next capture counted from the probed position; None for a draw."""

class Probe:
    """The answer for one position."""

    @property
    def position(self) -> str:
        """The probed position in notation."""
    @property
    def value(self) -> Value:
        """Win, draw or loss for the player to move (100-turn rule ignored)."""
    @property
    def dtc(self) -> Optional[int]:
        """Depth to capture in turns; None for a draw."""
    @property
    def moves(self) -> Optional[List[ProbeMove]]:
        """Every legal move, best first; None when probed with moves=False."""
    def to_dict(self) -> dict:
        """The fields of ``tigadi probe --json``: position, value, dtc, moves."""

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

        A placing position is answered from the placing tables, its moves being
        every placement with each capture choice ("d7", "d7xg1"). Raises
        ValueError for a bad string, MissingTableError / CorruptTableError for
        absent or damaged tables.
        """
    def probe_wdl(self, position: PositionLike) -> Value:
        """Win, draw or loss only, reading the cheaper WDL section."""
    def probe_many(self, positions: Iterable[PositionLike], *, moves: bool = True) -> List[Probe]:
        """probe for every position, in order, in parallel with the GIL released.

        With moves=False each Probe's moves is None. The first failing position
        raises as probe would, its message starting "positions[i]: ".
        """
