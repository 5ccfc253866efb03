"""Rule sets other than the default: strings parsed under the rule set they are
probed under, rule-aware starts, the 100-turn fields, and clear errors; every
answer compared with `tigadi probe --json` on the whole game of
`tigadi,pieces=4` (both phases, with its horizon tables)."""

import random

import pytest

import tigadi
from conftest import PIECES4, cli_probe_json

# The fields of a probe and of each of its moves as `tigadi probe --json` names them.
PROBE_FIELDS = ("position", "quiet_turns", "value", "dtc", "category", "rule_value", "dtc100")
MOVE_FIELDS = ("move", "value", "dtc", "category", "rule_value", "dtc100")


def start_text(pieces):
    """The start of a game in docs/RULES.md §9: the empty board, Bone to move,
    each player holding all their gotis."""
    return f".../.../.../....../.../.../... B {pieces} {pieces}"


def game_positions(rules, games, seed):
    """Every position of random games from the start under ``rules`` (both phases)
    up to the end of the game or 60 turns, as strings; moving-phase ones also
    with a random 100-turn counter, and some at the limit (a drawn game)."""
    rng = random.Random(seed)
    texts = []
    for _ in range(games):
        position = tigadi.Position.start(rules=rules)
        for _turn in range(60):
            if position.winner is not None:
                break
            text = str(position)
            texts.append(text)
            if position.phase == "moving" and position.quiet_turns == 0:
                counter = rng.choice([1, 40, 90, 99, 100])
                texts.append(text_with_counter(text, counter))
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
    return texts


def text_with_counter(text, counter):
    """A moving-phase position string with its 100-turn counter set."""
    ranks, side = text.split()[:2]
    return f"{ranks} {side} 0 0 {counter}"


def fields(obj, names):
    return {name: getattr(obj, name) for name in names}


def test_probes_of_both_phases_are_the_cli_objects(tigadi4_tb):
    """to_dict is `json.loads` of `tigadi probe --json`, for placing and moving
    positions, at any counter and for games the 100-turn rule has drawn; the
    attributes are its fields; a Position of the rule set answers as its string."""
    tb = tigadi.Tablebase(tigadi4_tb, rules=PIECES4)
    texts = game_positions(PIECES4, games=40, seed=31)
    cli = cli_probe_json(tigadi4_tb, PIECES4, texts)
    probes = tb.probe_many(texts)
    assert [p.to_dict() for p in probes] == cli
    for text, probe, want in zip(texts, probes, cli):
        assert fields(probe, PROBE_FIELDS) == {k: want[k] for k in PROBE_FIELDS}, text
        assert probe.game_over == want.get("game_over"), text
        assert [fields(m, MOVE_FIELDS) for m in probe.moves] == want["moves"], text
    # One by one, from Positions made under the rule set, as from strings.
    for text in texts[::7]:
        assert tb.probe(tigadi.Position(text, rules=PIECES4)).to_dict() == tb.probe(text).to_dict()
    # Without the moves: the same values, and no "moves".
    values = tb.probe_many(texts, moves=False)
    for probe, want in zip(values, cli):
        assert probe.moves is None
        assert probe.to_dict() == {k: v for k, v in want.items() if k != "moves"}
    assert [tb.probe_wdl(t) for t in texts] == [w["value"] for w in cli]
    # The sample covers what it is meant to.
    phases = {tigadi.Position(t, rules=PIECES4).phase for t in texts}
    assert phases == {"placing", "moving"}
    assert {w["category"] for w in cli} >= {"win", "draw", "loss"}
    assert any(w["rule_value"] != w["value"] for w in cli if "game_over" not in w)
    assert any(w.get("game_over", {}).get("reason") == "quiet_turns" for w in cli)


def test_strings_are_parsed_under_the_rules_they_are_probed_under(tigadi4_tb):
    tb = tigadi.Tablebase(tigadi4_tb, rules=PIECES4)
    start = start_text(4)
    assert tb.probe(start).to_dict() == cli_probe_json(tigadi4_tb, PIECES4, [start])[0]
    assert str(tigadi.Position(start, rules=PIECES4)) == start
    # Hands above the rule set's four gotis a player.
    for too_many in (start_text(5), start_text(9)):
        with pytest.raises(ValueError, match="BONE_HAND .*from 0 to 4"):
            tb.probe(too_many)
        with pytest.raises(ValueError, match="BONE_HAND .*from 0 to 4"):
            tb.probe_wdl(too_many)
        with pytest.raises(ValueError, match=r"positions\[1\]: .*BONE_HAND .*from 0 to 4"):
            tb.probe_many([start, too_many])
        with pytest.raises(ValueError, match="BONE_HAND .*from 0 to 4"):
            tigadi.Position(too_many, rules=PIECES4)


def test_rule_aware_start():
    for rules, pieces in [("tigadi", 9), (PIECES4, 4), ("morris,pieces=3", 3), ("navakankari", 9)]:
        start = tigadi.Position.start(rules=rules)
        assert str(start) == start_text(pieces)
        assert start.rules == rules
        assert start == tigadi.Position(rules=rules) == tigadi.Position(start_text(pieces), rules=rules)
        assert (start.side, start.phase, start.bone_hand, start.seed_hand) == ("B", "placing", pieces, pieces)
    assert tigadi.Position.start() == tigadi.Position()
    with pytest.raises(ValueError, match="unknown rule set"):
        tigadi.Position.start(rules="chess")


def test_a_position_of_another_rule_set_is_refused(tigadi4_tb, tigadi_tb):
    four = tigadi.Tablebase(tigadi4_tb, rules=PIECES4)
    # The same string means a position under both rule sets, but a Position
    # carries its rules: probed on tables of other rules it is refused.
    text = "BB./S../.../...S../.../.../SB. S"
    for position, tb in [
        (tigadi.Position(text), four),
        (tigadi.Position(text, rules=PIECES4), tigadi.Tablebase(tigadi_tb)),
        (tigadi.Position(start_text(4)), four),
    ]:
        for probe in (tb.probe, tb.probe_wdl, lambda p: tb.probe_many([p]), lambda p: tb.probe_many([p], moves=False)):
            with pytest.raises(ValueError) as e:
                probe(position)
            message = str(e.value)
            assert f"'{position.rules}'" in message and f"'{tb.rules}'" in message, message


def test_bad_input_gets_a_value_error_naming_the_problem(tigadi4_tb):
    tb = tigadi.Tablebase(tigadi4_tb, rules=PIECES4)
    # Five Bone gotis on a four-gotis board: an impossible position, not a
    # missing 5v3 table.
    five = "BBB/BB./.../....../.../.../SSS B"
    with pytest.raises(ValueError, match="5 gotis on the board.*4 a player has") as e:
        tb.probe(five)
    assert not isinstance(e.value, tigadi.TablebaseError)
    with pytest.raises(ValueError, match="5 gotis on the board"):
        tb.probe_wdl(five)
    with pytest.raises(ValueError, match="5 gotis on the board"):
        tb.probe_many([five], moves=False)
    # A string Python can hold but that is no text (a lone surrogate).
    for probe in (tb.probe, tb.probe_wdl, lambda p: tb.probe_many([p]), tigadi.Position):
        with pytest.raises(ValueError, match="not valid Unicode.*surrogate"):
            probe("\ud800")
    with pytest.raises(TypeError, match="position string"):
        tb.probe(4)
