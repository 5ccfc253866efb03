#!/usr/bin/env python3
"""The match of docs/RESULTS.md (issue 55): tigadi.openspiel.TablebaseBot on
whole-game `morris` tables (both phases) against OpenSpiel's MCTS bot, in
OpenSpiel's `nine_mens_morris` from the empty board: GAMES games, half with the
bot first (Bone, OpenSpiel's "W"), half second. One JSON line per game on
standard output (game, the bot's player, result for the bot, turns, the bot's
moves answered by the tables, its record in toolkit moves, seconds), then one
summary line; the exit status is 1 when the bot lost a game (the start is a
draw: a bot playing from the tables never loses it) or the directory holds no
morris tables.

    python3 benches/openspiel_match.py TABLEBASE_DIR [--games 100] [--simulations 100]
        [--workers N] [--seed 55] > match.jsonl

TABLEBASE_DIR holds `morris/` as `tigadi --rules morris solve --dir
TABLEBASE_DIR` writes it (moving and placing tables; DTW tables, `--dtw`, make
the bot press wins by depth to win, DTC otherwise). Games run in parallel, one
per worker process (default: one per core); each game is seeded by its number,
so results do not depend on the number of workers.

MCTS settings: UCT constant 2, --simulations simulations a move (default 100),
one random rollout per leaf (OpenSpiel's RandomRolloutEvaluator), seeded. A game
lasts at most OpenSpiel's 200 turns, about 100 of them MCTS moves: at 100
simulations about 0.15 s a move on one core of a loaded 2-core development
machine, so at most about 15 s a game; 100 games on 16 workers take about 2
minutes, under 5 on a slower machine.

Needs only Python wheels, no network (pip install --no-index --find-links
WHEELS ...): the tigadi wheel (`maturin build --release --manifest-path
crates/tigadi-py/Cargo.toml`, one abi3 wheel for CPython >= 3.8) and open_spiel
2.0.2 with its dependencies, as `pip download open_spiel==2.0.2` fetches them
for the target's Python: open_spiel, numpy, scipy, absl-py, ml-collections,
PyYAML, attrs (docs/ENGINES.md, "OpenSpiel").
"""

import argparse
import json
import multiprocessing
import os
import sys
import time


def play_game(job):
    """One game: (number, the bot's player, directory, simulations, seed)."""
    number, player, directory, simulations, seed = job
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import tigadi
    from tigadi import openspiel as tos

    game = pyspiel.load_game(tos.GAME)
    rs = np.random.RandomState(seed + number)
    opponent = mcts.MCTSBot(
        game, uct_c=2, max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
        random_state=rs,
    )
    bot = tos.TablebaseBot(tigadi.Tablebase(directory, rules=tos.RULES), seed=seed + number)
    state = game.new_initial_state()
    bots = [None, None]
    bots[player], bots[1 - player] = bot, opponent
    from_tables = bot_moves = 0
    start = time.time()
    while not state.is_terminal():
        mover = state.current_player()
        action = bots[mover].step(state)
        if mover == player:
            bot_moves += 1
            from_tables += bot.last is not None
        state.apply_action(action)
    result = {1.0: "win", 0.0: "draw", -1.0: "loss"}[state.returns()[player]]
    return {
        "game": number,
        "bot_player": player,
        "bot_side": tos.SIDES[player],
        "result": result,
        "turns": tos.turns_played(state),
        "bot_actions": bot_moves,
        "bot_actions_from_tables": from_tables,
        "record": " ".join(tos.to_record(state)),
        "seconds": round(time.time() - start, 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="tablebase directory holding morris/")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations a move")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--seed", type=int, default=55)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.directory, "morris")):
        sys.exit(f"openspiel_match: no morris/ tables in {args.directory}")
    # Even games: the bot first; odd: second.
    jobs = [(n, n % 2, args.directory, args.simulations, args.seed) for n in range(args.games)]
    start = time.time()
    totals = {"win": 0, "draw": 0, "loss": 0}
    with multiprocessing.Pool(args.workers) as pool:
        for row in pool.imap(play_game, jobs):
            totals[row["result"]] += 1
            print(json.dumps(row), flush=True)
    print(json.dumps({
        "summary": True, "games": args.games, "simulations": args.simulations,
        "workers": args.workers, "seconds": round(time.time() - start, 1), **totals,
    }), flush=True)
    return 1 if totals["loss"] else 0


if __name__ == "__main__":
    sys.exit(main())
