"""tigadi.Position: parsing and printing (docs/RULES.md §9), legal moves and play,
checked against the naive model in rules_oracle.py."""

import random

import pytest

import tigadi
import rules_oracle as oracle

EXAMPLE = "BB./S../.../...S../.../.../SB. S"
START = ".../.../.../....../.../.../... B 9 9"


def test_prints_what_it_parses():
    for text in [EXAMPLE, START, EXAMPLE.replace(" S", " B 0 0 37")]:
        assert str(tigadi.Position(text)) == text
    assert str(tigadi.Position()) == START
    assert tigadi.Position(EXAMPLE + " 0 0 0") == tigadi.Position(EXAMPLE)


def test_fields():
    p = tigadi.Position(EXAMPLE)
    assert (p.side, p.phase, p.bone_hand, p.seed_hand, p.quiet_turns) == ("S", "moving", 0, 0, 0)
    assert sorted(p.bone) == ["a7", "d1", "d7"]
    assert sorted(p.seed) == ["a1", "b6", "e4"]
    assert p.winner is None and p.rules == "tigadi"
    start = tigadi.Position()
    assert (start.side, start.phase, start.bone_hand, start.seed_hand) == ("B", "placing", 9, 9)
    assert {p: 1}[tigadi.Position(EXAMPLE)] == 1
    assert "Position('" in repr(p)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty"),
        ("BB./S../...", "1 fields"),
        ("BB./S../.../...S../.../.../SB.", "1 fields"),
        ("BB./S../.../...S../.../... S", "6 ranks"),
        ("BB./S../.../...S../.../.../SB.. S", "rank 1"),
        ("BB./S../.../...S../.../.../SBX S", "'X' on g1"),
        ("BB./S../.../...S../.../.../SB. W", "side to move 'W'"),
        ("BB./S../.../...S../.../.../SB. S 1", "one hand"),
        ("BB./S../.../...S../.../.../SB. S 0 0 101", "QUIET_TURNS '101'"),
        ("BB./S../.../...S../.../.../SB. S 0 0 -1", "QUIET_TURNS '-1'"),
        ("BB./S../.../...S../.../.../SB. S x 0", "BONE_HAND 'x'"),
        ("BB./S../.../...S../.../.../SB. B 1 2", "order of placing"),
        ("BB./S../.../...S../.../.../.B. S", "only 2 gotis"),
        ("BBB/BBB/BBB/B...S./.../.../SS. S", "more than the 9"),
        ("B../.../.../....../.../.../... B 3 3 4", "while placing"),
    ],
)
def test_bad_strings_raise_value_error_naming_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem.replace("(", r"\(")) as e:
        tigadi.Position(text)
    assert repr(text) in str(e.value) or text == ""


def test_bad_rules_and_types():
    with pytest.raises(ValueError, match="unknown rule set 'chess'"):
        tigadi.Position(EXAMPLE, rules="chess")
    with pytest.raises(ValueError, match="lines=20"):
        tigadi.Position(EXAMPLE, rules="lines=18")
    with pytest.raises(TypeError):
        tigadi.Position(42)
    assert tigadi.Position(EXAMPLE, rules="lines=16,blocked=loses").rules == "navakankari"


def test_play_returns_a_new_position():
    p = tigadi.Position(EXAMPLE)
    q = p.play("a1-a4")
    assert str(p) == EXAMPLE
    assert str(q) == "BB./S../.../S..S../.../.../.B. B 0 0 1"
    assert q.side == "B" and q.quiet_turns == 1


@pytest.mark.parametrize(
    "move, problem",
    [
        ("a1-g7", "not next to a1"),
        ("a7-a4", "a7 holds no Seed goti"),
        ("d5", "in hand|place"),
        ("pass", "pass"),
        ("z9", "not a point"),
        ("a1-", "bad move"),
        ("", "bad move|empty"),
    ],
)
def test_illegal_or_unreadable_moves_raise_value_error(move, problem):
    with pytest.raises(ValueError, match=problem):
        tigadi.Position(EXAMPLE).play(move)


@pytest.mark.parametrize("name, rules", [("tigadi", oracle.TIGADI), ("navakankari", oracle.NAVAKANKARI)])
def test_random_games_follow_the_naive_rules(name, rules):
    """Random games from the empty board through placing, captures and moving:
    at every turn the legal moves equal the naive model's, and play gives the
    naive model's next position."""
    rng = random.Random(11)
    plies = 0
    for _game in range(60):
        model = oracle.START
        pos = tigadi.Position(rules=name)
        for _turn in range(80):
            expected = oracle.legal_moves(rules, model)
            got = pos.legal_moves()
            assert len(got) == len(set(got)), str(pos)
            assert set(got) == expected, str(pos)
            if not expected:
                assert pos.winner is not None or pos.phase == "moving"
                break
            move = rng.choice(sorted(expected))
            model = oracle.play(model, move)
            pos = pos.play(move)
            assert str(pos) == oracle.to_string(model)
            plies += 1
    assert plies > 2000


def test_capture_to_two_ends_the_game():
    # Bone closes a1-d1-g1 by d2-d1 and takes one of Seed's three gotis.
    p = tigadi.Position("S../.../.../S....S/.../.B./B.B B")
    assert "d2-d1xa7" in p.legal_moves()
    q = p.play("d2-d1xa7")
    assert q.winner == "B"
    assert q.legal_moves() == []
    with pytest.raises(ValueError, match="over"):
        q.play("a4-a7")


# The Morabaraba preset (docs/RULES.md §8): 12 a side on the 20-line board; the
# last placement of a game without captures fills the board, a draw.
FULL_BOARD_RECORD = "d7 a7 g7 b6 d6 f6 c5 d5 e5 c4 a4 f4 b4 g4 e4 d3 c3 e3 d2 b2 f2 a1 g1 d1".split()


def test_morabaraba_is_twelve_a_side_and_a_full_board_is_a_draw(tmp_path):
    start = tigadi.Position.start("morabaraba")
    assert start.rules == "morabaraba"
    assert (start.bone_hand, start.seed_hand) == (12, 12)
    assert len(start.legal_moves()) == 24
    assert tigadi.Position(rules="lines=20,flying=3,blocked=loses,pieces=12") == start
    assert tigadi.Position(rules="morabaraba,pieces=4").rules == "morabaraba,pieces=4"
    p = start
    for move in FULL_BOARD_RECORD:
        p = p.play(move)
    assert (p.phase, p.side, len(p.bone), len(p.seed)) == ("moving", "B", 12, 12)
    # Nobody can move, and it is no blocked player's loss.
    assert p.legal_moves() == [] and p.winner is None
    # A finished game needs no table: the prober says how it ended.
    (tmp_path / "morabaraba").mkdir()
    answer = tigadi.Tablebase(str(tmp_path), rules="morabaraba").probe(str(p))
    assert answer.value == "draw"
    assert answer.game_over["reason"] == "full_board"
