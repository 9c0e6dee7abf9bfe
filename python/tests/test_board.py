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


def test_boards_order_by_shape_then_tiles():
    # The README calls boards comparable; `<` raised TypeError.
    goal = npuzzle.Board.goal(3, 3)
    assert goal < SEED  # 1 … before 2 …
    assert not SEED < SEED and SEED <= SEED and SEED >= SEED
    assert SEED > goal and SEED >= goal and not SEED <= goal
    wide = npuzzle.Board.goal(2, 4)
    small, tall = npuzzle.Board.goal(2, 2), npuzzle.Board.goal(4, 2)
    # By rows, then columns, whatever the tiles: 2x2, 2x4, 3x3, 4x2.
    assert small < wide < goal < tall
    assert npuzzle.Board.goal(2, 4, "blank-first") < wide
    boards = [npuzzle.Board.random(r, c, seed=s) for r, c in ((3, 3), (2, 2), (2, 4)) for s in range(20)]
    got = sorted(boards)
    assert got == sorted(boards, key=lambda b: (b.shape, b.tiles))
    assert sorted(got, reverse=True) == got[::-1]
    # A total order agreeing with equality.
    for a, b in zip(boards, boards[1:]):
        assert sum((a < b, a == b, a > b)) == 1
    with pytest.raises(TypeError):
        SEED < "2 8 3 1 6 4 7 0 5"
    with pytest.raises(TypeError):
        SEED < 3


def test_tiles_of_two_digits_are_numbers_not_digit_strings():
    # `Board([49,50,48,51])` was re-read as the digits 4, 9, 5, 0, 4, 8, 5, 1
    # ("tile 4 appears twice", on a 4x2 board).
    with pytest.raises(ValueError) as e:
        npuzzle.Board([49, 50, 48, 51])
    assert str(e.value) == (
        "number 49 at row 1, column 1 is out of range: a 2x2 board has tiles 1..3 and the blank 0"
    )
    with pytest.raises(ValueError, match=r"^number 49 at row 1, column 1 is out of range"):
        npuzzle.Board([[49, 50], [48, 51]])
    with pytest.raises(ValueError, match=r"^number 49 at row 1, column 1 is out of range"):
        npuzzle.Board(np.array([49, 50, 48, 51]))
    # Read as digits these were valid boards (1 2/3 0, the 8-puzzle's goal).
    with pytest.raises(ValueError, match=r"^2 tiles do not fill a 2x2 board"):
        npuzzle.Board([12, 30])
    with pytest.raises(ValueError, match=r"^a 1x1 board is not supported"):
        npuzzle.Board([123456780])
    with pytest.raises(ValueError, match=r"^cannot infer the board size from 8 tiles"):
        npuzzle.Board([10, 2, 3, 4, 5, 6, 7, 0])
    with pytest.raises(ValueError, match=r"^number 10 at row 1, column 1 is out of range: a 2x4"):
        npuzzle.Board([10, 2, 3, 4, 5, 6, 7, 0], shape=(2, 4))
    with pytest.raises(ValueError, match=r"^number 99 at row 1, column 2 is out of range"):
        npuzzle.Board([1, 99, 3, 0])
    with pytest.raises(ValueError, match=r"^tile 1 appears twice \(row 1, column 1 and row 1, column 2\)"):
        npuzzle.Board([1, 1, 10, 0])
    with pytest.raises(ValueError, match=r"'-10' is not a tile \(item 2\)"):
        npuzzle.Board([1, -10, 3, 0])
    with pytest.raises(ValueError, match=r"^goal board: number 49 at row 1, column 1 is out of range"):
        npuzzle.Board.goal(2, 2).is_solvable([49, 50, 48, 51])
    with pytest.raises(ValueError, match=r"^goal board: number 12 at row 1, column 1 is out of range"):
        npuzzle.Board.random(2, 2, seed=1, goal=[12, 30, 1, 0])
    # Text stays text: a digit string, and a number quoted as written.
    assert npuzzle.Board("1230") == npuzzle.Board([1, 2, 3, 0])
    with pytest.raises(ValueError, match=r"^number 049 at row 1, column 1"):
        npuzzle.Board("049 1 2 0")
    # Large boards are unchanged.
    assert npuzzle.Board(list(range(1, 16)) + [0]) == npuzzle.Board.goal(4, 4)


def test_an_empty_row_is_named():
    # `solve([[]])` said "row 1 has 0 tiles but row 1 has 0".
    with pytest.raises(ValueError) as e:
        npuzzle.Board([[]])
    assert str(e.value) == "row 1 is empty"
    with pytest.raises(ValueError, match=r"^row 1 is empty"):
        npuzzle.Board([[], [1, 2]])
    with pytest.raises(ValueError, match=r"^row 2 has 0 tiles but row 1 has 2"):
        npuzzle.Board([[1, 0], []])
    with pytest.raises(ValueError, match=r"^no tiles found"):
        npuzzle.Board([])


@pytest.mark.parametrize(
    "shape,error,message",
    [
        ((-2, -2), ValueError, r"shape=\(-2, -2\) is no board size: each side must be from 2 to 16"),
        (-3, ValueError, r"shape=-3 is no board size"),
        ((2, -1), ValueError, r"shape=\(2, -1\) is no board size"),
        ([2, 10**30], ValueError, r"shape=\[2, 1000000000000000000000000000000\] is no board size"),
        ((1, 9), ValueError, r"a 1x9 board is not supported by exact search: each side must be from 2 to 16"),
        ((2, 2, 2), ValueError, r"shape must be \(rows, cols\), not \(2, 2, 2\)"),
        ((2, "2"), TypeError, r"shape \(rows, cols\) must hold ints, not str"),
        ((2, True), TypeError, r"shape \(rows, cols\) must hold ints, not bool"),
        (2.0, TypeError, r"shape must be \(rows, cols\), a string such as '2x4', or an int, not float"),
        (True, TypeError, r"not bool"),
    ],
)
def test_bad_shapes_are_named(shape, error, message):
    # `shape=(-2, -2)` was a TypeError about a tuple.
    with pytest.raises(error, match=message):
        npuzzle.Board("1 2 3 0", shape=shape)
    with pytest.raises(error, match=message):
        npuzzle.solve("1 2 3 0", shape=shape)


def test_good_shapes():
    wide = npuzzle.Board("1 2 3 4 5 6 7 0", shape=(2, 4))
    assert npuzzle.Board("1 2 3 4 5 6 7 0", shape=[2, 4]) == wide
    assert npuzzle.Board("1 2 3 4 5 6 7 0", shape="2x4") == wide
    assert npuzzle.Board("1 2 3 4 5 6 7 8 0", shape=3) == npuzzle.Board.goal(3, 3)
    assert npuzzle.Board("1 2 3 4 5 6 7 8 0", shape=(np.int64(3), 3)) == npuzzle.Board.goal(3, 3)


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
    with pytest.raises(ValueError, match=r"move 4 \(D, blank notation\) cannot be made on"):
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


def test_a_random_walk_is_bounded():
    # moves=4294967295 walked for minutes; the command line refuses it too
    with pytest.raises(ValueError, match="at most 10000000 moves"):
        npuzzle.Board.random(4, 4, seed=1, moves=4294967295)
    board = npuzzle.Board.random(4, 4, seed=1, moves=10_000)
    assert board.is_solvable(npuzzle.Board.goal(4, 4))
