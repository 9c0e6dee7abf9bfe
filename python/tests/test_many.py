"""npuzzle.solve_many: NumPy arrays of boards against solve and a plain BFS,
every dtype and layout, goals broadcast, and bad rows named."""

import numpy as np
import pytest

import npuzzle


def random_boards(n, cells, seed):
    """`n` uniformly random permutations of 0..cells-1, one a row."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(cells, dtype=np.uint8), (n, 1)), axis=1)


def test_random_pairs_against_solve_and_a_plain_bfs(bfs):
    starts = random_boards(300, 9, 1)
    goals = random_boards(300, 9, 2)
    got = npuzzle.solve_many(starts, goals)
    assert got.dtype == np.int32 and got.shape == (300,)
    for s, g, m in zip(starts[:60], goals[:60], got[:60]):
        sol = npuzzle.solve(s, g, algorithm="idastar", path=False)
        assert m == (sol.moves if sol.solvable else -1)
    # Against an independent search: one goal for every start.
    goal = np.array([1, 2, 3, 8, 0, 4, 7, 6, 5], dtype=np.uint8)
    dist = bfs(tuple(goal), 3)
    got = npuzzle.solve_many(starts, goal)
    want = [dist.get(tuple(s), -1) for s in starts.tolist()]
    assert got.tolist() == want
    assert 100 < (got == -1).sum() < 200  # random boards: half unreachable


def test_goals_broadcast_names_and_count_start():
    starts = random_boards(50, 9, 3)
    spiral = npuzzle.Board.goal(3, 3, "spiral")
    one = npuzzle.solve_many(starts, np.array(spiral.tiles))
    assert np.array_equal(one, npuzzle.solve_many(starts, np.array([spiral.tiles])))
    assert np.array_equal(one, npuzzle.solve_many(starts, "spiral"))
    assert np.array_equal(one, npuzzle.solve_many(starts, np.tile(spiral.tiles, (50, 1))))
    assert np.array_equal(npuzzle.solve_many(starts), npuzzle.solve_many(starts, "blank-last"))
    counted = npuzzle.solve_many(starts, "spiral", count_start=True)
    assert np.array_equal(counted, np.where(one >= 0, one + 1, -1))


INTEGER_DTYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]


@pytest.mark.parametrize("byteorder", ["<", ">"])
@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_every_integer_dtype(dtype, byteorder, bfs):
    # Every integer dtype in either byte order ('>i4' was refused), in
    # every layout, against a plain BFS.
    dtype = np.dtype(dtype).newbyteorder(byteorder)
    starts = random_boards(40, 9, 4)
    dist = bfs(npuzzle.Board.goal(3, 3).tiles, 3)
    want = [dist.get(tuple(s), -1) for s in starts.tolist()]
    typed = starts.astype(dtype)
    assert typed.dtype == dtype
    assert npuzzle.solve_many(typed).tolist() == want
    assert npuzzle.solve_many(np.asfortranarray(typed)).tolist() == want
    # Non-contiguous views: every other row, every other column.
    wide = np.repeat(np.repeat(typed, 2, axis=0), 2, axis=1)[::2, ::2]
    assert not wide.flags.c_contiguous and not wide.flags.f_contiguous
    assert npuzzle.solve_many(wide).tolist() == want
    assert npuzzle.solve_many(typed[::-1]).tolist() == want[::-1]
    assert npuzzle.solve_many(starts.tolist()).tolist() == want
    # Goals too, one for all and one per start.
    spiral = np.array(npuzzle.Board.goal(3, 3, "spiral").tiles, dtype=dtype)
    want = npuzzle.solve_many(starts, "spiral")
    assert np.array_equal(npuzzle.solve_many(typed, spiral), want)
    assert np.array_equal(npuzzle.solve_many(typed, np.tile(spiral, (40, 1))[::-1]), want)


def test_platform_integer_types():
    # The C names (`intc`, `longlong`, …) are dtypes of their own to NumPy.
    starts = random_boards(20, 9, 6)
    want = npuzzle.solve_many(starts)
    for t in (np.byte, np.ubyte, np.short, np.ushort, np.intc, np.uintc, np.int_, np.uint,
              np.longlong, np.ulonglong, np.intp, np.uintp):
        assert np.array_equal(npuzzle.solve_many(starts.astype(t)), want), t


def test_out_of_range_values_in_the_other_byte_order_are_named():
    starts = random_boards(3, 9, 7).astype(">i4")
    starts[2, 4] = -7
    with pytest.raises(ValueError, match=r"^starts\[2\]: number -7 at row 2, column 2 is out of range"):
        npuzzle.solve_many(starts)
    with pytest.raises(TypeError, match="starts must hold integers, not >f8"):
        npuzzle.solve_many(starts.astype(">f8"))


def test_other_shapes(bfs):
    goal = npuzzle.Board.goal(2, 4)
    starts = random_boards(200, 8, 5)
    got = npuzzle.solve_many(starts, shape=(2, 4))
    dist = bfs(goal.tiles, 4)
    assert got.tolist() == [dist.get(tuple(s), -1) for s in starts.tolist()]
    assert np.array_equal(npuzzle.solve_many(starts, shape="2x4"), got)
    # 4x2: the same tiles read as another shape.
    tall = npuzzle.solve_many(starts, shape=(4, 2))
    dist = bfs(npuzzle.Board.goal(4, 2).tiles, 2)
    assert tall.tolist() == [dist.get(tuple(s), -1) for s in starts.tolist()]
    assert npuzzle.solve_many(np.zeros((0, 9), dtype=np.uint8)).shape == (0,)


def test_boards_beyond_the_tables_are_searched(bfs):
    goal = npuzzle.Board.goal(4, 4)
    dist = bfs(goal.tiles, 4, depth=12)
    starts = np.array([npuzzle.Board.random(4, 4, seed=s, moves=12).tiles for s in range(16)])
    got = npuzzle.solve_many(starts, heuristic="linear-conflict")
    assert got.tolist() == [dist[tuple(s)] for s in starts.tolist()]
    one = npuzzle.solve(starts[3], heuristic="linear-conflict")
    assert got[3] == one.moves


def test_bad_rows_are_named_before_any_answer():
    starts = np.tile(np.arange(9, dtype=np.uint8), (100_000, 1))
    starts[61_234, 4] = 1
    starts[99_000, 0] = 77
    with pytest.raises(ValueError) as e:
        npuzzle.solve_many(starts)
    assert str(e.value) == "starts[61234]: tile 1 appears twice (row 1, column 2 and row 2, column 2)"
    wide = starts.astype(np.int64)
    wide[70_000, 2] = -5
    with pytest.raises(ValueError, match=r"^starts\[61234\]: tile 1 appears twice"):
        npuzzle.solve_many(wide)
    wide[61_234, 4] = 4
    with pytest.raises(ValueError) as e:
        npuzzle.solve_many(wide)
    assert str(e.value) == (
        "starts[70000]: number -5 at row 1, column 3 is out of range: "
        "a 3x3 board has tiles 1..8 and the blank 0"
    )
    ok = np.arange(9)[None, :].repeat(3, axis=0)
    with pytest.raises(ValueError, match=r"^goals\[2\]: no blank"):
        npuzzle.solve_many(ok, np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]] * 2 + [[1, 2, 3, 4, 5, 6, 7, 8, 9]]))
    with pytest.raises(ValueError, match=r"^goals\[0\]: number 300"):
        npuzzle.solve_many(ok, np.array([1, 2, 3, 4, 5, 6, 7, 300, 0]))


def test_bad_arrays_say_what_is_wrong():
    ok = np.arange(9)[None, :].repeat(3, axis=0)
    with pytest.raises(TypeError, match="starts must hold integers, not float64"):
        npuzzle.solve_many(ok.astype(float))
    with pytest.raises(TypeError, match="starts must hold integers"):
        npuzzle.solve_many(ok.astype(bool))
    with pytest.raises(ValueError, match=r"2-D array of shape \(N, cells\)"):
        npuzzle.solve_many(np.arange(9))
    with pytest.raises(ValueError, match=r"cannot infer the board size from 8 tiles per row"):
        npuzzle.solve_many(np.arange(8)[None, :])
    with pytest.raises(ValueError, match="starts rows have 9 tiles, but a 2x4 board has 8 cells"):
        npuzzle.solve_many(ok, shape=(2, 4))
    with pytest.raises(ValueError, match="goals has 2 rows but starts has 3"):
        npuzzle.solve_many(ok, ok[:2])
    with pytest.raises(ValueError, match=r"goals must be one goal of shape \(9,\)"):
        npuzzle.solve_many(ok, np.arange(4))
    with pytest.raises(ValueError, match="goal board: 'sideways' is not a goal name"):
        npuzzle.solve_many(ok, "sideways")
    with pytest.raises(ValueError, match="not proven optimal"):
        npuzzle.solve_many(ok, algorithm="wastar")
    with pytest.raises(ValueError, match="table cannot solve a 4x4 board"):
        npuzzle.solve_many(np.arange(16)[None, :], algorithm="table")
