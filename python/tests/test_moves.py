"""npuzzle.verify, simplify, invert, transpose, length and Board.apply with
a notation: verdicts against a plain breadth-first search in Python
(helpers.bfs_distances), rewrites against what they mean, replayed on
tuples (helpers.replay)."""

import random

import pytest

import npuzzle
from helpers import bfs_distances, replay

# Blank first: see test_analyse.py (the blank-last table changes plans).
GOAL = (0, 1, 2, 3, 4, 5, 6, 7, 8)
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
MIRROR = {"U": "L", "L": "U", "D": "R", "R": "D"}


def text(t):
    return " ".join(map(str, t))


def walk(tiles, cols, n, rng):
    """A random legal path of `n` blank steps from `tiles`."""
    path = ""
    while len(path) < n:
        d = rng.choice("UDLR")
        try:
            replay(tiles, cols, path + d)
        except AssertionError:
            continue
        path += d
    return path


def steps(moves):
    """Blank letters with counts (`R2U`) as single steps (`RRU`)."""
    out, i = "", 0
    while i < len(moves):
        d, i = moves[i], i + 1
        n = ""
        while i < len(moves) and moves[i].isdigit():
            n, i = n + moves[i], i + 1
        out += d * int(n or 1)
    return out


def pushes(path):
    return sum(1 for i, d in enumerate(path) if i == 0 or path[i - 1] != d)


def test_verify_agrees_with_a_plain_bfs():
    dist = bfs_distances(GOAL, 3)
    rng = random.Random(5)
    for i in range(12):
        there = walk(GOAL, 3, 8 + i, rng)
        start = replay(GOAL, 3, there)
        solution = "".join(OPPOSITE[d] for d in reversed(there))
        v = npuzzle.verify(text(start), solution, goal=text(GOAL))
        assert v["solves"] and v["end"] == "0 1 2/3 4 5/6 7 8"
        assert v["optimal"] == dist[start]
        assert v["wasted"] == len(solution) - dist[start]
        assert (v["stm"], v["mtm"]) == (len(solution), pushes(solution))
        # in tile notation the letters are the opposite ones
        tile = "".join(OPPOSITE[d] for d in solution)
        assert npuzzle.verify(text(start), tile, goal=text(GOAL), notation="tile")["optimal"] == dist[start]
        short = npuzzle.verify(text(start), solution[:-1], goal=text(GOAL))
        assert not short["solves"] and short["optimal"] is None
        assert short["end"].replace("/", " ") == text(replay(start, 3, solution[:-1]))


def test_verify_in_pushes_is_at_most_the_single_moves():
    start = text(replay(GOAL, 3, "RRDDLLUU"))
    v = npuzzle.verify(start, "DDRRUULL", goal=text(GOAL), metric="mtm")
    assert v["solves"] and v["moves"] == 4 and v["metric"] == "mtm"
    assert v["optimal"] <= 4


def test_rewrites_mean_what_they_say():
    rng = random.Random(11)
    for _ in range(20):
        path = walk(GOAL, 3, 20, rng)
        end = replay(GOAL, 3, path)
        inverse = npuzzle.invert(path)
        assert inverse == "".join(OPPOSITE[d] for d in reversed(path))
        assert replay(end, 3, inverse) == GOAL
        short = npuzzle.simplify(path)
        assert len(short) <= len(path) and replay(GOAL, 3, short) == end
        assert npuzzle.transpose(path) == "".join(MIRROR[d] for d in path)
        # written in pushes and read back, the same steps
        mtm = npuzzle.invert(path, metric="mtm")
        assert steps(mtm) == inverse
        assert npuzzle.length(path, metric="mtm") == pushes(path)
        tile = npuzzle.simplify(path, to="tile", spaced=True)
        assert tile.replace(" ", "") == "".join(OPPOSITE[d] for d in short)


def test_board_apply_reads_either_notation_and_counts():
    b = npuzzle.Board("1 2 3 4 5 6 7 8 0")
    assert b.apply("U2L") == b.apply("UUL") == b.apply("D2R", notation="tile")
    assert b.apply("uul").tiles == replay((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, "UUL")


@pytest.mark.parametrize(
    "call, says",
    [
        (lambda: npuzzle.verify("1 2 3 4 5 6 7 8 0", "D"), "move 1"),
        (lambda: npuzzle.invert("UX"), "moves:"),
        (lambda: npuzzle.simplify("UL", notation="tiles"), "notation:"),
        (lambda: npuzzle.transpose("UL", to="blanks"), "to:"),
        (lambda: npuzzle.length("UL", metric="htm"), "metric:"),
        (lambda: npuzzle.Board("1 2 3 4 5 6 7 8 0").apply("U", notation="x"), "notation:"),
    ],
)
def test_bad_input_is_a_value_error_naming_it(call, says):
    with pytest.raises(ValueError, match=says):
        call()
