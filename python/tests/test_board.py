"""npuzzle.Board: parsing, printing, moves, parity, random boards."""

import pickle

import numpy as np
import pytest

import npuzzle
from helpers import replay

SEED = npuzzle.Board("2 8 3/1 6 4/7 0 5")


def test_reads_every_format_to_the_same_board():
    for text in [
        "2 8 3 1 6 4 7 0 5",
        "2,8,3,1,6,4,7,0,5",
        "2 8 3\n1 6 4\n7 . 5",
        "[[2,8,3],[1,6,4],[7,0,5]]",
        "283/164/705",
        "283164705",
    ]:
        assert npuzzle.Board(text) == SEED, text
        assert npuzzle.Board.parse(text) == SEED
    assert npuzzle.Board([[2, 8, 3], [1, 6, 4], [7, 0, 5]]) == SEED
    assert npuzzle.Board(np.array([2, 8, 3, 1, 6, 4, 7, 0, 5])) == SEED
    assert npuzzle.Board(SEED) == SEED


def test_properties_and_text():
    assert (SEED.rows, SEED.cols, SEED.shape) == (3, 3, (3, 3))
    assert SEED.tiles == (2, 8, 3, 1, 6, 4, 7, 0, 5)
    assert SEED.blank == 7
    assert SEED.to_list() == [[2, 8, 3], [1, 6, 4], [7, 0, 5]]
    assert str(SEED) == "2 8 3\n1 6 4\n7 _ 5"
    assert SEED.format() == str(SEED)
    assert SEED.format("rows") == "2 8 3/1 6 4/7 0 5"
    assert SEED.format("flat") == "2 8 3 1 6 4 7 0 5"
    assert repr(SEED) == "Board('2 8 3/1 6 4/7 0 5')"
    assert eval(repr(SEED), {"Board": npuzzle.Board}) == SEED
    wide = npuzzle.Board("1 2 3 4 5 6 0 7", shape=(2, 4))
    for style in ("grid", "rows"):
        assert npuzzle.Board(wide.format(style).replace("_", "0")) == wide
    assert npuzzle.Board(wide.format("flat"), shape="2x4") == wide
    with pytest.raises(ValueError, match="not a style"):
        SEED.format("fancy")


def test_equality_hashing_and_pickling():
    other = npuzzle.Board([2, 8, 3, 1, 6, 4, 7, 0, 5])
    assert SEED == other and hash(SEED) == hash(other)
    assert SEED != npuzzle.Board.goal(3, 3)
    assert SEED != "2 8 3 1 6 4 7 0 5"
    assert len({SEED, other, npuzzle.Board.goal(3, 3)}) == 2
    assert pickle.loads(pickle.dumps(SEED)) == SEED


def test_named_goals():
    assert npuzzle.Board.goal(3, 3).tiles == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert npuzzle.Board.goal(3, 3, "blank-first").tiles == tuple(range(9))
    assert npuzzle.Board.goal(3, 3, "spiral").tiles == (1, 2, 3, 8, 0, 4, 7, 6, 5)
    assert npuzzle.Board.goal(2, 4, "spiral").tiles == (1, 2, 3, 4, 0, 7, 6, 5)
    with pytest.raises(ValueError, match="not a goal name"):
        npuzzle.Board.goal(3, 3, "sideways")
    with pytest.raises(ValueError, match="each side must be from 2 to 16"):
        npuzzle.Board.goal(1, 5)


def test_neighbors_and_moves():
    got = SEED.neighbors()
    assert [m for m, _ in got] == ["U", "L", "R"]  # the blank is on the bottom edge
    for m, b in got:
        assert b.tiles == replay(SEED.tiles, 3, m)
        assert SEED.apply(m) == b
    assert SEED.apply("UULDR") == npuzzle.Board.goal(3, 3, "spiral")
    assert SEED.apply("u u l d r") == SEED.apply("UULDR")
    assert SEED.apply("") == SEED
    with pytest.raises(ValueError, match=r"move 4 \('D'\) leaves the board"):
        SEED.apply("ULDD")
    with pytest.raises(ValueError, match=r"'X' \(move 2\) is not a move"):
        SEED.apply("UX")


def test_solvability_agrees_with_a_plain_bfs(bfs):
    goal = npuzzle.Board.goal(2, 3)
    reachable = bfs(goal.tiles, 3)
    import itertools

    for tiles in itertools.permutations(range(6)):
        b = npuzzle.Board(list(tiles), shape=(2, 3))
        assert b.is_solvable(goal) == (tiles in reachable)
        assert b.is_solvable() == (tiles in reachable)
    assert SEED.is_solvable("spiral")
    assert not npuzzle.Board("1 2 3 4 5 6 8 7 0").is_solvable()
    with pytest.raises(ValueError, match="goal board is 2x2"):
        SEED.is_solvable("1 2 3 0")


def test_random_boards_are_deterministic_and_solvable(bfs, cli):
    a = npuzzle.Board.random(3, 3, seed=1)
    assert a == npuzzle.Board.random(3, 3, seed=1)
    assert a != npuzzle.Board.random(3, 3, seed=2)
    # The first board `npuzzle random` writes for the same seed.
    out = cli.run("random", "--size", "3x3", "--count", "1", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert npuzzle.Board(out.stdout) == a
    spiral = npuzzle.Board.goal(3, 3, "spiral")
    dist = bfs(spiral.tiles, 3)
    for seed in range(50):
        b = npuzzle.Board.random(3, 3, seed=seed, goal="spiral")
        assert b.tiles in dist
        w = npuzzle.Board.random(3, 3, seed=seed, moves=9, goal=spiral)
        assert dist[w.tiles] <= 9 and dist[w.tiles] % 2 == 1
    unseeded = {npuzzle.Board.random(4, 4) for _ in range(5)}
    assert len(unseeded) > 1
    assert npuzzle.Board.random(2, 5, seed=0).shape == (2, 5)


def test_bad_boards_name_the_problem():
    cases = [
        ("1 2 3 4 5 6 7 8 8", "tile 8 appears twice (row 3, column 2 and row 3, column 3)"),
        ("1 2 3 4 5 6 7 0 9", "number 9 at row 3, column 3 is out of range"),
        ("1 2 3 4", "no blank: write it as 0, _ or ."),
        ("", "no tiles found"),
        ("1 2 x 0", "'x' is not a tile (item 3)"),
        ("1 2/3", "row 2 has 1 tiles but row 1 has 2"),
        ([1, 2, 3, 4, 5, 6, 7, -1, 0], "'-1' is not a tile (item 8)"),
        ([1, 2, 3, 10**30], "number 1000000000000000000000000000000 at row 2, column 2 is out of range"),
        ([[1, 2], []], "row 2 has 0 tiles but row 1 has 2"),
    ]
    for board, message in cases:
        with pytest.raises(ValueError) as e:
            npuzzle.Board(board)
        assert message in str(e.value), (board, str(e.value))
    with pytest.raises(ValueError, match=r"cannot infer the board size .* \(pass shape=\(rows, cols\)"):
        npuzzle.Board("1 2 3 4 5 6 0 7")
    with pytest.raises(ValueError, match="the rows give a 2x2 board but the size given is 3x3"):
        npuzzle.Board("1 2/3 0", shape=(3, 3))
    for bad in (3.5, b"123", {1: 2}, None):
        with pytest.raises(TypeError):
            npuzzle.Board(bad)
    with pytest.raises(TypeError, match="item 2 is a float, not a tile"):
        npuzzle.Board([1, 2.0, 3, 0])
    with pytest.raises(TypeError, match="item 1 is a bool"):
        npuzzle.Board([True, 0, 2, 3])
    with pytest.raises(TypeError, match="shape must be"):
        npuzzle.Board("1 2 3 0", shape=2.0)
