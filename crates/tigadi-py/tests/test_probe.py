"""tigadi.Tablebase against tables the tests solve with the CLI: every probed
value is checked against its successors by the rules of docs/RULES.md §7 (a naive
oracle written here), probe_many against probe, and both against
`tigadi probe --json`."""

import os
import random
import shutil
import threading

import pytest

import tigadi
import rules_oracle as oracle
from conftest import MAX_PIECES, cli_probe_json

EXAMPLE = "BB./S../.../...S../.../.../SB. S"
# Subspaces (mover, opponent) with at most MAX_PIECES gotis.
SUBSPACES = [(3, 3), (3, 4), (4, 3)]
assert all(m + o <= MAX_PIECES for m, o in SUBSPACES)


def random_positions(count, seed):
    rng = random.Random(seed)
    return [
        oracle.to_string(oracle.random_moving(rng, *rng.choice(SUBSPACES)))
        for _ in range(count)
    ]


def rank(value, dtc):
    """Orders outcomes for the player to move (docs/RULES.md §7): quicker wins first,
    then draws, then slower losses."""
    return {"win": 1000 - (dtc or 0), "draw": 0, "loss": -1000 + (dtc or 0)}[value]


def expected_move_value(tb, position, move):
    """The value of playing ``move``, from the mover's side, counted from
    ``position``: a capture is the next capture (DTC 1) and wins outright when it
    leaves the opponent two gotis; any other turn adds one to the opponent's DTC."""
    child = position.play(move)
    if child.winner is not None:
        return ("win", 1)
    answer = tb.probe(child)
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}[answer.value]
    if answer.value == "draw":
        return ("draw", None)
    return (flipped, 1 if "x" in move else answer.dtc + 1)


def check_against_successors(tb, text):
    position = tigadi.Position(text, rules=tb.rules)
    answer = tb.probe(text)
    legal = position.legal_moves()
    moves = [(m.move, m.value, m.dtc) for m in answer.moves]
    # Every legal move once, with the value its successor implies.
    assert sorted(m for m, _, _ in moves) == sorted(legal), text
    for move, value, dtc in moves:
        assert (value, dtc) == expected_move_value(tb, position, move), (text, move)
    # Best first; equal values in generation order.
    ranks = [rank(v, d) for _, v, d in moves]
    assert ranks == sorted(ranks, reverse=True), text
    for (a, va, da), (b, vb, db) in zip(moves, moves[1:]):
        if (va, da) == (vb, db):
            assert legal.index(a) < legal.index(b), text
    # The position's value is the best move's, or a loss at once when blocked
    # where that loses.
    if moves:
        assert (answer.value, answer.dtc) == moves[0][1:], text
    else:
        assert (answer.value, answer.dtc) == ("loss", None), text
        assert answer.game_over["reason"] == "blocked", text
    return answer


def test_values_agree_with_their_successors(tigadi_tb):
    tb = tigadi.Tablebase(tigadi_tb)
    seen = {"win": 0, "draw": 0, "loss": 0}
    for text in random_positions(300, seed=1):
        seen[check_against_successors(tb, text).value] += 1
    # The sample reaches every kind of value (3v4 and 4v3 are mostly decided,
    # 3v3 over a third drawn).
    assert all(n > 10 for n in seen.values()), seen


def test_blocked_player_loses_where_the_rules_say_so(navakankari_tb, tigadi_tb):
    # Bone on three corners, each hemmed in by Seed on the 16-line board.
    blocked = "BS./.../.../S....S/.../.../BSB B"
    tb = tigadi.Tablebase(navakankari_tb, rules="navakankari")
    answer = check_against_successors(tb, blocked)
    assert (answer.value, answer.dtc, answer.moves) == ("loss", None, [])
    assert answer.game_over["winner"] == "seed"
    for text in random_positions(100, seed=2):
        check_against_successors(tb, text)
    # With diagonals and passing, the same Bone can slide to b2.
    assert "a1-b2" in [m.move for m in tigadi.Tablebase(tigadi_tb).probe(blocked).moves]


def placing_positions(rules, seed, games=40):
    """Every position with the player to move holding gotis of `games` random
    games of three a side from the empty board, until the first turn without."""
    rng = random.Random(seed)
    texts = []
    for _ in range(games):
        position = tigadi.Position(".../.../.../....../.../.../... B 3 3", rules=rules)
        while position.winner is None and position.phase == "placing":
            texts.append(str(position))
            position = position.play(rng.choice(position.legal_moves()))
    return texts


def test_placing_positions_agree_with_their_successors_and_the_cli(morris3_tb):
    """Every position of random games from the empty board, placing phase first:
    each placement (with each capture choice) has the value its successor implies,
    best first, and the answers are `tigadi probe --json`'s."""
    rules = "morris,pieces=3"
    tb = tigadi.Tablebase(morris3_tb, rules=rules)
    texts = placing_positions(rules, seed=8)
    seen = {"win": 0, "draw": 0, "loss": 0}
    for text in texts:
        answer = check_against_successors(tb, text)
        seen[answer.value] += 1
        assert tb.probe_wdl(text) == answer.value
    assert seen["loss"] > 0 and seen["win"] > 0, seen
    assert [a.to_dict() for a in tb.probe_many(texts)] == cli_probe_json(morris3_tb, rules, texts)


def test_lasker_positions_with_slides_in_hand_agree_with_their_successors(lasker3_tb):
    """Under Lasker's rule a player with gotis in hand may place or slide: every
    position of random games while gotis are in hand lists both kinds of turn,
    each with the value its successor implies, and the answers are `tigadi probe
    --json`'s."""
    rules = "lasker,pieces=3"
    tb = tigadi.Tablebase(lasker3_tb, rules=rules)
    texts = placing_positions(rules, seed=53)
    both = 0
    for text in texts:
        answer = check_against_successors(tb, text)
        kinds = {"-" in m.move for m in answer.moves}
        both += kinds == {True, False}
    assert both > 20, both
    assert [a.to_dict() for a in tb.probe_many(texts)] == cli_probe_json(lasker3_tb, rules, texts)


def test_lasker_depth_under_the_rule_is_a_dtz(lasker3_rule_tb):
    """Under Lasker's rule the depth under the 100-turn rule counts to the next
    capture or placement: it is `dtz100` (never `dtc100`), in `tigadi probe
    --json`, in `to_dict` and in the attributes, of positions and their turns."""
    rules = "lasker,pieces=3"
    tb = tigadi.Tablebase(lasker3_rule_tb, rules=rules)
    texts = placing_positions(rules, seed=53)
    probes = tb.probe_many(texts)
    cli = cli_probe_json(lasker3_rule_tb, rules, texts)
    assert [a.to_dict() for a in probes] == cli
    depths = 0
    for probe, want in zip(probes, cli):
        assert "dtc100" not in want and "dtz100" in want, want
        for obj, row in [(probe, want)] + list(zip(probe.moves, want["moves"])):
            assert obj.dtc100 is None
            assert obj.dtz100 == row["dtz100"]
            depths += obj.dtz100 is not None
    assert depths > 0


def test_dtw_agrees_with_the_successors(morris3_tb, tigadi_tb):
    """Depth to win (docs/RULES.md §7) on positions of random games of both
    phases: each move's dtw is 1 when it ends the game (by the rules, through
    Position.play) and otherwise 1 + its successor's probed dtw; the position's is
    the least among its winning moves, the greatest among its moves when lost, None
    for a draw; never below the DTC. Without DTW tables dtw is None."""
    rules = "morris,pieces=3"
    tb = tigadi.Tablebase(morris3_tb, rules=rules)
    rng = random.Random(11)
    seen = {"placing": 0, "moving": 0}
    for _ in range(15):
        position = tigadi.Position(".../.../.../....../.../.../... B 3 3", rules=rules)
        for _ in range(40):
            if position.winner is not None or not position.legal_moves():
                break
            answer = tb.probe(position)
            seen[position.phase] += 1
            for m in answer.moves:
                after = position.play(m.move)
                if after.winner is not None:
                    expected = 1
                else:
                    nxt = tb.probe(after).dtw
                    expected = None if nxt is None else nxt + 1
                assert m.dtw == expected, (str(position), m.move)
            dtws = [m.dtw for m in answer.moves if m.value == answer.value]
            if answer.value == "win":
                assert answer.dtw == min(dtws) >= answer.dtc, str(position)
            elif answer.value == "loss":
                assert answer.dtw == max(dtws) >= answer.dtc, str(position)
            else:
                assert answer.dtw is None, str(position)
            assert answer.to_dict()["dtw"] == answer.dtw
            position = position.play(rng.choice(position.legal_moves()))
    assert seen["placing"] > 0 and seen["moving"] > 0, seen
    plain = tigadi.Tablebase(tigadi_tb).probe(EXAMPLE)
    assert plain.dtw is None and "dtw" not in plain.to_dict()
    assert all(m.dtw is None for m in plain.moves)


def test_probe_many_agrees_with_probe(tigadi_tb):
    tb = tigadi.Tablebase(tigadi_tb)
    texts = random_positions(2000, seed=3)
    # Strings and Positions mixed, a generator as input.
    inputs = (tigadi.Position(t) if i % 3 == 0 else t for i, t in enumerate(texts))
    many = tb.probe_many(inputs)
    assert [a.to_dict() for a in many] == [tb.probe(t).to_dict() for t in texts]
    values = tb.probe_many(texts, moves=False)
    assert [(a.value, a.dtc, a.moves) for a in values] == [(a.value, a.dtc, None) for a in many]
    assert "moves" not in values[0].to_dict()
    assert [tb.probe_wdl(t) for t in texts] == [a.value for a in many]
    assert tb.probe_many([]) == []


def test_probe_many_from_threads(tigadi_tb):
    tb = tigadi.Tablebase(tigadi_tb)
    texts = random_positions(500, seed=4)
    expected = [a.to_dict() for a in tb.probe_many(texts)]
    results = {}

    def work(i):
        results[i] = [a.to_dict() for a in tb.probe_many(texts)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[i] == expected for i in range(4))


@pytest.mark.parametrize("rules, fixture", [("tigadi", "tigadi_tb"), ("navakankari", "navakankari_tb")])
def test_agrees_with_the_cli(rules, fixture, request):
    directory = request.getfixturevalue(fixture)
    tb = tigadi.Tablebase(directory, rules=rules)
    texts = random_positions(500, seed=5) + [EXAMPLE]
    cli = cli_probe_json(directory, rules, texts)
    assert [a.to_dict() for a in tb.probe_many(texts)] == cli


def test_errors(tigadi_tb, tmp_path):
    tb = tigadi.Tablebase(tigadi_tb)
    # The placing tables are not in this directory (moving phase only).
    with pytest.raises(tigadi.MissingTableError, match="p0-0v0"):
        tb.probe(".../.../.../....../.../.../... B 9 9")
    with pytest.raises(ValueError, match="side to move 'X'"):
        tb.probe("BB./S../.../...S../.../.../SB. X")
    with pytest.raises(TypeError, match="position string"):
        tb.probe(7)
    with pytest.raises(ValueError, match="unknown rule set"):
        tigadi.Tablebase(tigadi_tb, rules="checkers")
    # 4v4 is beyond the solved tables.
    with pytest.raises(tigadi.MissingTableError, match="4v4") as e:
        tb.probe("BBB/S../.../...S../.../.B./SS. S")
    assert isinstance(e.value, tigadi.TablebaseError)
    with pytest.raises(tigadi.MissingTableError):
        tigadi.Tablebase(tmp_path / "nothing-here").probe(EXAMPLE)
    # A batch names the first failing position by its index.
    texts = random_positions(5, seed=6)
    with pytest.raises(ValueError, match=r"positions\[3\]: position 'nonsense'"):
        tb.probe_many(texts[:3] + ["nonsense"] + texts[3:] + ["also bad"])
    with pytest.raises(tigadi.MissingTableError, match=r"positions\[1\]"):
        tb.probe_many([EXAMPLE, "BBB/S../.../...S../.../.B./SS. S"])
    # The position after a winning capture (Seed down to two gotis) is answered
    # as the finished game it is, as `tigadi probe` and the server answer it.
    over = tigadi.Position("S../.../.../S....S/.../.B./B.B B").play("d2-d1xa7")
    answer = tb.probe(over)
    assert answer.game_over["winner"] == "bone"
    assert answer.game_over["reason"] == "material"
    assert answer.value == "loss" and answer.moves == []
    # Two gotis in all with the game not just ended by a capture is still refused.
    with pytest.raises(ValueError, match="only 2 gotis"):
        tb.probe("BB./S../.../....../.../.../SB. S")


def test_damaged_table_raises_corrupt_table_error(tigadi_tb, tmp_path):
    copy = tmp_path / "tb"
    shutil.copytree(tigadi_tb, copy)
    (path,) = [p for p in (copy / "tigadi").iterdir() if p.name.startswith("3v3")]
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle] ^= 0xFF
    path.write_bytes(bytes(data))
    tb = tigadi.Tablebase(copy)
    with pytest.raises(tigadi.CorruptTableError, match="corrupt"):
        # Probe every 3v3 position of a sample; at least the damaged block's fail.
        tb.probe_many(random_positions(3000, seed=7))


def test_repr_speaks_the_one_vocabulary(morris3_tb, tigadi_tb):
    """repr and str of a move name a depth to win "wins in N turns" / "loses in N
    turns" and a depth to capture "captures in N" (docs/USAGE.md, "Depths in
    words"), built here from the move's own dtw and dtc."""
    tb = tigadi.Tablebase(morris3_tb, rules="morris,pieces=3")
    seen = 0
    for table, position in [(tb, ".../.../.../....../.../.../... B 3 3"),
                            (tigadi.Tablebase(tigadi_tb), EXAMPLE)]:
        for m in table.probe(position).moves:
            text = repr(m)
            assert "win in" not in text and "loss in" not in text, text
            if m.value == "draw":
                assert text.endswith("'draw')"), text
                continue
            if m.dtw is not None:
                verb = "wins" if m.value == "win" else "loses"
                turns = "turn" if m.dtw == 1 else "turns"
                assert f"{verb} in {m.dtw} {turns}" in text, text
                seen += 1
            if m.dtc:
                assert f"captures in {m.dtc}" in text, text
            assert str(m).startswith(m.move + ": "), str(m)
    assert seen > 0


def test_lasker_position_without_its_table(tmp_path):
    # Issue 53: a Lasker position whose hands no alternate placing gives (Seed
    # has slid once: Bone 8 in hand, Seed 9) is a missing table of its tier,
    # named by its file, not an invalid position.
    (tmp_path / "lasker").mkdir()
    tb = tigadi.Tablebase(tmp_path, rules="lasker")
    with pytest.raises(tigadi.MissingTableError, match="h8-9-2v1"):
        tb.probe(".../.../.../BB..../.../.../S.. B 8 9")
