"""The tables in OpenSpiel: conversion between OpenSpiel's ``nine_mens_morris``
and the toolkit's ``morris`` rule set, and ``TablebaseBot``, a ``pyspiel.Bot``
that plays from the tables.

    import pyspiel, tigadi
    from tigadi import openspiel as tos
    game = pyspiel.load_game("nine_mens_morris")
    state = game.new_initial_state()
    tos.to_position(state)                     # tigadi.Position(".../.../... B 9 9", rules="morris")
    tos.to_actions(state, "d7")                # [1]
    bot = tos.TablebaseBot(tigadi.Tablebase("tablebases", rules="morris"))
    state.apply_action(bot.step(state))

Needs OpenSpiel (``pip install tigadi[openspiel]`` pulls ``open_spiel``).

How the two games meet (docs/ENGINES.md, "OpenSpiel"):

- OpenSpiel numbers the 24 points row by row from the top, which is the order
  of the ranks of a position string (docs/RULES.md §9): point 0 is a7, 1 d7,
  2 g7, 3 b6, ... 21 a1, 22 d1, 23 g1 (``POINTS``).
- OpenSpiel's player 0, "W", is Bone (who places first); player 1, "B", is Seed.
- A turn that closes a mill is one toolkit move (``a1-a4xg7``, ``d5xg7``) and two
  OpenSpiel actions: the placement or slide (a point ``p`` is action ``p``, a
  slide from ``f`` to ``t`` is ``24 + 24 * f + t``), then the capture (the
  captured point). ``to_move`` merges them, ``to_actions`` splits them.
- The rules agree move for move (flying at three, protected gotis, blocked
  player loses, a player left with two gotis loses). They differ only in draws:
  OpenSpiel ends every game as a draw after ``MAX_TURNS`` turns and knows neither
  repetition nor the 100-turn rule; the tables' values are game-theoretic (the
  100-turn rule ignored), and ``TablebaseBot`` knows the turn cap.
"""

import random as _random

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tigadi.openspiel needs OpenSpiel: pip install 'tigadi[openspiel]' "
        "(or pip install open_spiel)"
    ) from e

from . import MissingTableError, Position

#: The OpenSpiel game this module converts.
GAME = "nine_mens_morris"
#: The toolkit's rule set of the same game (docs/RULES.md §8).
RULES = "morris"
#: OpenSpiel's point numbers: ``POINTS[i]`` is the toolkit's name of point ``i``.
POINTS = (
    "a7", "d7", "g7",
    "b6", "d6", "f6",
    "c5", "d5", "e5",
    "a4", "b4", "c4", "e4", "f4", "g4",
    "c3", "d3", "e3",
    "b2", "d2", "f2",
    "a1", "d1", "g1",
)
_POINT = {name: i for i, name in enumerate(POINTS)}
_NUM_POINTS = len(POINTS)
#: OpenSpiel's turn cap (``kMaxNumTurns``): a game not decided after this many
#: turns (a turn being a placement or slide with its capture) is a draw.
MAX_TURNS = 200
#: The toolkit's letter of OpenSpiel's players 0 ("W") and 1 ("B").
SIDES = ("B", "S")
_SIDE_OF_CELL = {"W": "B", "B": "S", ".": "."}

# Where each point stands in ``str(state)``: (row, column) of the diagram, whose
# rows are 15 characters and a newline (OpenSpiel's kPointStrCoords).
_COORDS = (
    (0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7),
    (4, 10), (6, 0), (6, 2), (6, 4), (6, 10), (6, 12), (6, 14), (8, 4),
    (8, 7), (8, 10), (10, 2), (10, 7), (10, 12), (12, 0), (12, 7), (12, 14),
)
_ROW = 16
#: Where the fields below the diagram begin in ``str(state)`` (after its 13
#: rows and an empty line).
_FIELDS_AT = 13 * _ROW + 1
#: The last game whose type was checked to be nine_mens_morris (pybind11 hands
#: back one Python object per game, so the check is paid once per game).
_checked_game = [None]


#: The index in ``str(state)`` of each point's character.
_CELL_AT = tuple(r * _ROW + c for r, c in _COORDS)


class _Fields:
    """What an OpenSpiel nine_mens_morris state holds, read from its text."""

    __slots__ = ("cells", "player", "turns", "hands", "men", "capturing")

    def __init__(self, state):
        game = state.get_game()
        if game is not _checked_game[0]:
            name = game.get_type().short_name
            if name != GAME:
                raise TypeError(f"a state of OpenSpiel's {GAME} is needed, not one of {name}")
            _checked_game[0] = game
        text = str(state)
        self.cells = [_SIDE_OF_CELL[text[i]] for i in _CELL_AT]
        values = dict(line.partition(": ")[::2] for line in text[_FIELDS_AT:].splitlines())
        self.player = SIDES["WB".index(values["Current player"])]
        self.turns = int(values["Turn number"])
        self.hands = tuple(map(int, values["Men to deploy"].split()))
        self.men = tuple(map(int, values["Num men"].split()))
        self.capturing = "Capture time!" in text

    def position_text(self, quiet_turns):
        ranks = "".join(self.cells)
        cuts = (0, 3, 6, 9, 15, 18, 21, 24)
        board = "/".join(ranks[a:b] for a, b in zip(cuts, cuts[1:]))
        return f"{board} {self.player} {self.hands[0]} {self.hands[1]} {quiet_turns}"


def turns_played(state):
    """OpenSpiel's turn number of ``state``: turns completed since the empty
    board (a capture belongs to the turn of the move that closed the mill); the
    game is a draw when it reaches ``MAX_TURNS``."""
    return _Fields(state).turns


def mid_turn(state):
    """True when ``state`` waits for the capture of a turn whose placement or
    slide closed a mill (an OpenSpiel state between the two actions of one
    toolkit move)."""
    return _Fields(state).capturing


def to_position(state, quiet_turns=0):
    """The toolkit position (rule set ``morris``) of an OpenSpiel
    ``nine_mens_morris`` state at the start of a turn, finished games included.

    OpenSpiel keeps no 100-turn counter, so the position's counter is
    ``quiet_turns`` (turns since the last capture; 0 by default, always 0 while
    placing). Raises ValueError for a state in the middle of a turn (use
    ``turn_start``), TypeError for a state of another game.
    """
    fields = _Fields(state)
    if fields.capturing:
        raise ValueError(
            "the state is in the middle of a turn (its capture is to come): "
            "no toolkit position holds it; use turn_start(state)"
        )
    placing = fields.hands != (0, 0)
    return Position(fields.position_text(0 if placing else quiet_turns), rules=RULES)


def turn_start(state):
    """``(state at the start of the current turn, its actions so far)``: the state
    itself and ``[]`` at the start of a turn, else a copy of the state before the
    turn's placement or slide and that one action."""
    if not _Fields(state).capturing:
        return state.clone(), []
    history = state.history()
    start = state.get_game().new_initial_state()
    for action in history[:-1]:
        start.apply_action(action)
    return start, [history[-1]]


def _action_of(text):
    """The OpenSpiel action of a placement (``d5``) or slide (``a1-a4``)."""
    if "-" in text:
        frm, _, to = text.partition("-")
        return _NUM_POINTS + _NUM_POINTS * _point(frm) + _point(to)
    return _point(text)


def _point(name):
    try:
        return _POINT[name]
    except KeyError:
        raise ValueError(f"{name!r} is not a point (a1 ... g7 of docs/RULES.md §1)") from None


def to_actions(state, move):
    """The OpenSpiel actions of toolkit move ``move`` (``"d5"``, ``"a1-a4"``,
    ``"a1-a4xg7"``) played at ``state``, the start of a turn: one action, or two
    when the move captures (the placement or slide, then the captured point).
    Raises ValueError naming the problem when the move is not legal there."""
    position = to_position(state)
    legal = position.legal_moves()
    if move not in legal:
        raise ValueError(
            f"{move!r} is not a legal move in {position} (legal: {' '.join(legal) or 'none'})"
        )
    step, _, capture = move.partition("x")
    actions = [_action_of(step)]
    if capture:
        actions.append(_point(capture))
    return actions


def to_move(state, actions):
    """The toolkit move (notation of docs/RULES.md §9) of the OpenSpiel
    ``actions`` of one turn played from ``state``, the start of a turn: the
    placement or slide, and its capture when it closes a mill. Raises ValueError
    when they are not exactly one legal turn."""
    actions = list(actions)
    if not actions or len(actions) > 2:
        raise ValueError(f"one turn is one or two actions, not {len(actions)}")
    position = to_position(state)
    after = state.clone()
    for i, action in enumerate(actions):
        if after.is_terminal() or action not in after.legal_actions():
            raise ValueError(f"action {action} is not legal after {actions[:i]} in {position}")
        after.apply_action(action)
        # Every action but the last must leave the turn waiting for its capture.
        if (i + 1 < len(actions)) != (not after.is_terminal() and mid_turn(after)):
            missing = i + 1 == len(actions)
            raise ValueError(
                f"actions {actions} are not one whole turn in {position}"
                + (" (the capture is missing)" if missing else "")
            )
    first = actions[0]
    if first < _NUM_POINTS:
        text = POINTS[first]
    else:
        frm, to = divmod(first - _NUM_POINTS, _NUM_POINTS)
        text = f"{POINTS[frm]}-{POINTS[to]}"
    if len(actions) == 2:
        text += "x" + POINTS[actions[1]]
    return text


def turns(state):
    """The game of ``state`` so far as ``[(state at the turn's start, actions)]``,
    one entry per completed turn from the empty board (a turn in progress is
    left out)."""
    game = state.get_game()
    current = game.new_initial_state()
    out = []
    actions = []
    start = current.clone()
    for action in state.history():
        actions.append(action)
        current.apply_action(action)
        if current.is_terminal() or not mid_turn(current):
            out.append((start, actions))
            start, actions = current.clone(), []
    return out


def to_record(state):
    """The toolkit's game record of ``state``'s game: the move of every
    completed turn from the empty board (a turn in progress is left out)."""
    return [to_move(start, actions) for start, actions in turns(state)]


def from_record(moves, game=None):
    """The OpenSpiel state reached by playing the toolkit moves ``moves`` (a list,
    or a game record string of docs/RULES.md §9) from the empty board. Raises
    ValueError naming the first illegal move."""
    if isinstance(moves, str):
        moves = [m for m in moves.split() if not m.rstrip(".").isdigit()]
    state = (game or pyspiel.load_game(GAME)).new_initial_state()
    for number, move in enumerate(moves, 1):
        try:
            actions = to_actions(state, move)
        except ValueError as e:
            raise ValueError(f"move {number}: {e}") from None
        for action in actions:
            state.apply_action(action)
    return state


# Ranks a draw above every loss that OpenSpiel's turn cap turns into a draw.
_BEYOND = 1 << 30


def _key(position):
    """A position without its 100-turn counter: what a repetition repeats."""
    return (position.side, tuple(position.bone), tuple(position.seed),
            position.bone_hand, position.seed_hand)


class TablebaseBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` for ``nine_mens_morris`` that plays the best move from
    the tables wherever they answer (both phases on a whole solved set) and asks
    ``fallback`` (any ``pyspiel.Bot``; a uniformly random legal action when None)
    where they do not.

    ``tablebase`` is a ``tigadi.Tablebase`` of rule set ``morris``. The best move
    is by the game-theoretic value (OpenSpiel draws only by its turn cap, which
    the tables ignore), then by depth: a win by the shortest depth to win (DTW
    where the tables have it, else DTC), so a won position is pressed to the end
    of the game, before OpenSpiel's cap of ``MAX_TURNS`` turns wherever its DTW
    allows; a loss by the longest, so that the cap may save it; among equals, the
    move whose position has occurred least often in the game, so that a drawn
    game does not circle. The bot keeps its own 100-turn counter and repetition
    counts (OpenSpiel keeps neither), read from the state's history:
    ``quiet_turns`` and ``repetitions`` after each ``step``.

    A turn that captures is two OpenSpiel actions: the bot plans the whole move,
    returns its first action and, asked again in the middle of the turn, its
    capture. ``last`` is the ``tigadi.Probe`` of the last position answered from
    the tables (None when the fallback played).
    """

    def __init__(self, tablebase, fallback=None, seed=None):
        pyspiel.Bot.__init__(self)
        if tablebase.rules != RULES:
            raise ValueError(
                f"the tables are of rule set {tablebase.rules!r}; "
                f"OpenSpiel's {GAME} is {RULES!r}"
            )
        self.tablebase = tablebase
        self.fallback = fallback
        self._random = _random.Random(seed)
        self.last = None
        self.quiet_turns = 0
        self.repetitions = {}

    def restart_at(self, state):
        self.last = None
        if self.fallback is not None:
            self.fallback.restart_at(state)

    def inform_action(self, state, player_id, action):
        if self.fallback is not None:
            self.fallback.inform_action(state, player_id, action)

    @staticmethod
    def _count(start):
        """The 100-turn counter at ``start`` (a turn's start) and how often each
        position (``_key``) occurred in its game, itself included."""
        quiet, seen = 0, {}
        for before, actions in turns(start) + [(start, None)]:
            position = to_position(before)
            seen[_key(position)] = seen.get(_key(position), 0) + 1
            if actions is not None:
                moving = position.phase == "moving"
                quiet = quiet + 1 if moving and len(actions) == 1 else 0
        return quiet, seen

    def best_move(self, state):
        """The move the tables choose at ``state`` (the start of a turn, or the
        middle of one: then only moves that begin with the action already
        played), with the state at the turn's start; raises MissingTableError
        where the tables do not answer."""
        start, done = turn_start(state)
        position = to_position(start)
        probe = self.tablebase.probe(position)
        self.last = probe
        self.quiet_turns, self.repetitions = self._count(start)
        left = MAX_TURNS - turns_played(start)
        best, best_key = None, None
        for m in probe.moves:
            if done and to_actions(start, m.move)[: len(done)] != done:
                continue
            depth = m.dtw if m.dtw is not None else m.dtc
            if m.value == "win":
                key = (2, -depth)
            elif m.value == "loss":
                # A loss beyond the cap is a draw in OpenSpiel.
                rank = 1 if m.dtw is not None and m.dtw > left else 0
                key = (rank, depth)
            else:
                key = (1, _BEYOND)
            key += (-self.repetitions.get(_key(position.play(m.move)), 0),)
            if best_key is None or key > best_key:
                best, best_key = m.move, key
        if best is None:
            raise MissingTableError(f"no move of {position} begins with actions {done}")
        return best, start

    def step(self, state):
        try:
            move, start = self.best_move(state)
        except (MissingTableError, ValueError):
            self.last = None
            if self.fallback is not None:
                return self.fallback.step(state)
            return self._random.choice(state.legal_actions())
        actions = to_actions(start, move)
        return actions[len(state.history()) - len(start.history())]
