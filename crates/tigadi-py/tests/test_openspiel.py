"""tigadi.openspiel against OpenSpiel itself: the states of random
`nine_mens_morris` games converted both ways (board against OpenSpiel's own
observation tensor, every legal turn against OpenSpiel's legal actions, records
replayed), and TablebaseBot against OpenSpiel's MCTS bot and against itself from
positions of a small solved set, judged by the tables' values of the start.

Skipped where OpenSpiel is not installed (.ci/python-tests.sh installs it)."""

import random

import pytest

import tigadi

pyspiel = pytest.importorskip("pyspiel")
tos = pytest.importorskip("tigadi.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
np = pytest.importorskip("numpy")

GAME = pyspiel.load_game("nine_mens_morris")
#: Random games whose every state is converted.
ROUND_TRIP_GAMES = 200
#: Games of TablebaseBot against MCTS, and of TablebaseBot against itself.
MCTS_GAMES = 30
SELF_PLAY_GAMES = 10
#: Gotis on the board in all in the solved set (conftest.morris8_tb).
SOLVED_GOTIS = 8
#: MCTS strength in the tests: weak and quick (the bot's moves are what is judged;
#: benches/openspiel_match.py plays a stronger MCTS).
MCTS_SIMULATIONS = 10


def board_of_observation(state):
    """Bone ("B"), Seed ("S") or "." on each of OpenSpiel's points 0..23, read
    from its observation tensor (planes white, black, empty over a 7x7 grid whose
    24 points come in point order), not from the text the module parses."""
    tensor = np.array(state.observation_tensor(0)).reshape(5, 7, 7)
    cells = []
    for r in range(7):
        for c in range(7):
            if tensor[:3, r, c].any():
                cells.append("BS."[int(np.argmax(tensor[:3, r, c]))])
    assert len(cells) == 24
    return cells


def turns_of(state):
    """Every legal turn at ``state`` as OpenSpiel's actions: one, or two when the
    first closes a mill."""
    out = []
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        if not after.is_terminal() and tos.mid_turn(after):
            out.extend([a, b] for b in after.legal_actions())
        else:
            out.append([a])
    return out


def test_points_are_openspiel_numbers():
    assert len(tos.POINTS) == 24 and len(set(tos.POINTS)) == 24
    # OpenSpiel's point 0 is the top left corner, 23 the bottom right, numbered row
    # by row: the order of a position string's ranks (docs/RULES.md §9).
    state = GAME.new_initial_state()
    for point, name in enumerate(tos.POINTS):
        after = state.clone()
        after.apply_action(point)
        assert tos.to_position(after).bone == [name]
        ranks = str(tos.to_position(after)).split()[0].replace("/", "")
        assert ranks == "." * point + "B" + "." * (23 - point)


def test_every_state_of_random_games_converts_both_ways():
    rng = random.Random(55)
    states = captures = finished_by_capture = 0
    for _ in range(ROUND_TRIP_GAMES):
        state = GAME.new_initial_state()
        played = tigadi.Position(rules="morris")  # the toolkit's game alongside
        while True:
            position = tos.to_position(state)
            states += 1
            # OpenSpiel -> toolkit: the same position as the toolkit's own game ...
            assert (position.bone, position.seed, position.side) == (
                played.bone, played.seed, played.side
            ), (str(position), str(played))
            assert (position.bone_hand, position.seed_hand) == (played.bone_hand, played.seed_hand)
            # ... and the board that OpenSpiel shows in its observation tensor.
            cells = board_of_observation(state)
            assert sorted(position.bone) == sorted(tos.POINTS[i] for i, c in enumerate(cells) if c == "B")
            assert sorted(position.seed) == sorted(tos.POINTS[i] for i, c in enumerate(cells) if c == "S")
            # Toolkit -> OpenSpiel: the position string back gives the same position.
            assert tigadi.Position(str(position), rules="morris") == position
            if state.is_terminal():
                assert played.winner is not None or tos.turns_played(state) >= tos.MAX_TURNS
                if played.winner is not None:
                    returns = state.returns()
                    assert returns[tos.SIDES.index(played.winner)] == 1.0
                    finished_by_capture += min(len(played.bone), len(played.seed)) < 3
                break
            assert played.winner is None
            # Every legal turn once each way: OpenSpiel's actions merge into the
            # toolkit's legal moves, and each move splits back into its actions.
            turns = turns_of(state)
            moves = [tos.to_move(state, t) for t in turns]
            assert sorted(moves) == sorted(played.legal_moves()), str(played)
            for t, m in zip(turns, moves):
                assert tos.to_actions(state, m) == t
            i = rng.randrange(len(turns))
            captures += len(turns[i]) == 2
            for a in turns[i]:
                state.apply_action(a)
            played = played.play(moves[i])
        # The game's record both ways: OpenSpiel's history from the toolkit's moves.
        record = tos.to_record(state)
        assert tos.from_record(record, GAME).history() == state.history()
        assert tos.from_record(" ".join(record)).history() == state.history()
    # The games met what a conversion could get wrong.
    assert captures > ROUND_TRIP_GAMES and finished_by_capture > 0, (captures, finished_by_capture)
    assert states > 20 * ROUND_TRIP_GAMES


def test_bad_moves_and_actions_are_refused():
    state = GAME.new_initial_state()
    for move, problem in [("z9", "not a legal move"), ("a1-a4", "not a legal move"), ("d5xg7", "not a legal")]:
        with pytest.raises(ValueError, match=problem):
            tos.to_actions(state, move)
    with pytest.raises(ValueError, match="not legal"):
        tos.to_move(state, [24 + 3])
    with pytest.raises(ValueError, match="one or two actions"):
        tos.to_move(state, [])
    with pytest.raises(ValueError, match="move 2"):
        tos.from_record("d7 d7")
    # A mill closed without its capture is half a turn.
    state = tos.from_record("a7 a1 d7 d1")
    with pytest.raises(ValueError, match="capture is missing"):
        tos.to_move(state, [2])
    half = state.clone()
    half.apply_action(2)
    with pytest.raises(ValueError, match="middle of a turn"):
        tos.to_position(half)
    start, done = tos.turn_start(half)
    assert done == [2] and start.history() == state.history()
    assert tos.to_move(state, [2, tos.POINTS.index("a1")]) == "g7xa1"
    with pytest.raises(TypeError, match="nine_mens_morris"):
        tos.to_position(pyspiel.load_game("tic_tac_toe").new_initial_state())


def solved_starts(tb, count, seed):
    """OpenSpiel states at the start of a turn, each the first state of a random
    game with at most SOLVED_GOTIS gotis on the board in the moving phase and
    still in play; with the side the bot plays (one whose value is not a loss) and that
    value."""
    rng = random.Random(seed)
    starts = []
    while len(starts) < count:
        # Every other start decided: most positions of the set are drawn.
        decided = len(starts) % 2 == 1
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if not tos.mid_turn(state):
                position = tos.to_position(state)
                on_board = len(position.bone) + len(position.seed)
                if position.phase == "moving" and on_board <= SOLVED_GOTIS:
                    probe = tb.probe(position)
                    if not decided or probe.value != "draw":
                        break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        mover = tos.SIDES.index(tos.to_position(state).side)
        if probe.value == "win":
            player, value = mover, "win"
        elif probe.value == "loss":
            player, value = 1 - mover, "win"
        else:  # a draw for both: each side in turn
            player, value = len(starts) % 2, "draw"
        starts.append((state, player, value, probe.dtw))
    return starts


class Never(pyspiel.Bot):
    """A fallback that must not be asked."""

    def __init__(self):
        pyspiel.Bot.__init__(self)

    def step(self, state):
        raise AssertionError(f"the tables did not answer {state.history()}")


def play(state, bots):
    """Plays ``state`` (changed) to its end: the returns."""
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def check_result(start, end, player, value, dtw):
    left = tos.MAX_TURNS - tos.turns_played(start)
    returns = end.returns()
    if value == "win" and dtw <= left:
        # Won, and within the depth to win: every move of the bot shortens it.
        took = tos.turns_played(end) - tos.turns_played(start)
        assert returns[player] == 1.0 and took <= dtw, (str(tos.to_position(start)), dtw, took)
    else:
        assert returns[player] >= 0.0, (str(tos.to_position(start)), player, value)


def test_bot_never_worsens_a_won_or_drawn_position_against_mcts(morris8_tb):
    tb = tigadi.Tablebase(morris8_tb, rules="morris")
    rs = np.random.RandomState(55)
    opponent = mcts.MCTSBot(
        GAME, uct_c=2, max_simulations=MCTS_SIMULATIONS,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), random_state=rs,
    )
    starts = solved_starts(tb, MCTS_GAMES, seed=1)
    values = [v for _, _, v, _ in starts]
    assert values.count("win") >= 5 and values.count("draw") >= 5, values
    # The set answers every position after the start: every move is from the tables.
    bot = tos.TablebaseBot(tb, fallback=Never())
    for start, player, value, dtw in starts:
        bots = [None, None]
        bots[player], bots[1 - player] = bot, opponent
        end = start.clone()
        play(end, bots)
        check_result(start, end, player, value, dtw)


def test_bot_against_itself_never_loses_a_drawn_start(morris8_tb):
    tb = tigadi.Tablebase(morris8_tb, rules="morris")
    starts = [s for s in solved_starts(tb, 3 * SELF_PLAY_GAMES, seed=2) if s[2] == "draw"]
    assert len(starts) >= SELF_PLAY_GAMES // 2
    for start, _, _, _ in starts[:SELF_PLAY_GAMES]:
        bot = tos.TablebaseBot(tb, fallback=Never())
        assert play(start.clone(), [bot, bot]) == [0.0, 0.0]


def test_bot_falls_back_where_the_tables_do_not_answer(morris8_tb):
    tb = tigadi.Tablebase(morris8_tb, rules="morris")

    class First(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)
            self.asked = 0

        def step(self, state):
            self.asked += 1
            return state.legal_actions()[0]

    fallback = First()
    bot = tos.TablebaseBot(tb, fallback=fallback)
    state = GAME.new_initial_state()  # placing: no placing tables in the set
    assert bot.step(state) == state.legal_actions()[0] and fallback.asked == 1
    assert bot.last is None
    with pytest.raises(ValueError, match="rule set"):
        tos.TablebaseBot(tigadi.Tablebase(morris8_tb, rules="tigadi"))
