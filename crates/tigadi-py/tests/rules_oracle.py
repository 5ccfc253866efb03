"""A deliberately naive model of the rules, written from docs/RULES.md (§1 board, §3-§5
moves and captures, §9 notation) and sharing no code with the Rust engine: the
tests check the package's parsing, legal moves and play against it.

Positions are plain tuples: (bone: frozenset, seed: frozenset, side: "B"|"S",
bone_hand, seed_hand, quiet_turns).
"""

# docs/RULES.md §9: the points of each rank, rank 7 first, left to right.
RANKS = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4", "e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
]
POINTS = [p for rank in RANKS for p in rank]

# docs/RULES.md §1: the 16 lines of the plain board, then the 4 corner diagonals.
PLAIN_LINES = [
    "a1 d1 g1", "g1 g4 g7", "a7 d7 g7", "a1 a4 a7",
    "b2 d2 f2", "f2 f4 f6", "b6 d6 f6", "b2 b4 b6",
    "c3 d3 e3", "e3 e4 e5", "c5 d5 e5", "c3 c4 c5",
    "d1 d2 d3", "g4 f4 e4", "d7 d6 d5", "a4 b4 c4",
]
DIAGONALS = ["a1 b2 c3", "g1 f2 e3", "g7 f6 e5", "a7 b6 c5"]


class Rules:
    """The switches of docs/RULES.md §8 that the tests use (no flying)."""

    def __init__(self, diagonals, blocked_loses):
        self.blocked_loses = blocked_loses
        self.lines = [tuple(l.split()) for l in PLAIN_LINES + (DIAGONALS if diagonals else [])]
        self.neighbours = {p: set() for p in POINTS}
        for a, b, c in self.lines:
            for x, y in ((a, b), (b, c)):
                self.neighbours[x].add(y)
                self.neighbours[y].add(x)


TIGADI = Rules(diagonals=True, blocked_loses=False)
NAVAKANKARI = Rules(diagonals=False, blocked_loses=True)


def closes(rules, own, point):
    """Does ``point`` (in ``own``) stand on a line all of whose points are own?"""
    return any(point in line and all(p in own for p in line) for line in rules.lines)


def capturable(rules, enemy):
    """Enemy gotis not standing in a complete line of their own, or all of them
    when every one does (§5)."""
    free = {p for p in enemy if not closes(rules, enemy, p)}
    return free or set(enemy)


def mover_enemy(pos):
    bone, seed, side = pos[0], pos[1], pos[2]
    return (bone, seed) if side == "B" else (seed, bone)


def hand(pos, side):
    return pos[3] if side == "B" else pos[4]


def legal_moves(rules, pos):
    """Every legal move in notation, as a set."""
    own, enemy = mover_enemy(pos)
    side = pos[2]
    other = "S" if side == "B" else "B"
    if len(own) + hand(pos, side) < 3 or len(enemy) + hand(pos, other) < 3:
        return set()
    empty = [p for p in POINTS if p not in own and p not in enemy]
    moves = set()

    def add(text, after, to):
        if closes(rules, after, to) and enemy:
            moves.update(f"{text}x{c}" for c in capturable(rules, enemy))
        else:
            moves.add(text)

    if hand(pos, side) > 0:
        for to in empty:
            add(to, own | {to}, to)
        return moves
    for frm in own:
        for to in rules.neighbours[frm]:
            if to in empty:
                add(f"{frm}-{to}", (own - {frm}) | {to}, to)
    if not moves and not rules.blocked_loses:
        moves.add("pass")
    return moves


def play(pos, move):
    """The position after a legal ``move``."""
    bone, seed, side, bh, sh, quiet = pos
    own, enemy = (set(bone), set(seed)) if side == "B" else (set(seed), set(bone))
    text, _, captured = move.partition("x")
    if text == "pass":
        quiet += 1
    elif "-" in text:
        frm, to = text.split("-")
        own.remove(frm)
        own.add(to)
        quiet = 0 if captured else quiet + 1
    else:
        own.add(text)
        if side == "B":
            bh -= 1
        else:
            sh -= 1
    if captured:
        enemy.remove(captured)
    if side == "B":
        bone, seed = own, enemy
    else:
        seed, bone = own, enemy
    return (frozenset(bone), frozenset(seed), "S" if side == "B" else "B", bh, sh, quiet)


def to_string(pos):
    """The position string of docs/RULES.md §9 (hands written when either or the
    counter is nonzero, the counter when nonzero)."""
    bone, seed, side, bh, sh, quiet = pos
    ranks = "/".join(
        "".join("B" if p in bone else "S" if p in seed else "." for p in rank) for rank in RANKS
    )
    text = f"{ranks} {side}"
    if bh or sh or quiet:
        text += f" {bh} {sh}"
    if quiet:
        text += f" {quiet}"
    return text


START = (frozenset(), frozenset(), "B", 9, 9, 0)


def random_moving(rng, n_mover, n_opponent, side=None):
    """A random moving-phase position with ``n_mover`` gotis for the player to
    move and ``n_opponent`` for the other."""
    side = side or rng.choice("BS")
    pts = rng.sample(POINTS, n_mover + n_opponent)
    mover, opp = frozenset(pts[:n_mover]), frozenset(pts[n_mover:])
    bone, seed = (mover, opp) if side == "B" else (opp, mover)
    return (bone, seed, side, 0, 0, 0)
