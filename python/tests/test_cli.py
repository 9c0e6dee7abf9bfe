"""The package agrees with the command line (`npuzzle solve --json`,
`npuzzle compare --json`) on random boards, and says the same about bad
ones."""

import json

import pytest

import npuzzle
from helpers import replay

SIZES = [(3, 3), (2, 4), (3, 2), (2, 5)]


@pytest.mark.parametrize("rows,cols", SIZES)
def test_random_boards_agree_with_the_cli(cli, rows, cols):
    for seed in range(6):
        start = npuzzle.Board.random(rows, cols, seed=seed)
        goal = npuzzle.Board.random(rows, cols, seed=100 + seed, goal="spiral")
        args = ["--goal", goal.format("rows"), "--size", f"{rows}x{cols}"]
        want = cli.solve_json(start.format("flat"), *args)
        got = npuzzle.solve(start.format("flat"), goal.format("rows"), shape=(rows, cols))
        d = got.to_dict()
        for key in ("rows", "cols", "start", "goal", "solvable", "moves", "optimal", "lower_bound"):
            assert d[key] == want[key], (key, start, goal)
        if got.solvable:
            # Both paths are optimal (the algorithms may differ, so the
            # paths may too): same length, both replay to the goal.
            assert len(want["path"]) == len(got.path) == got.moves
            assert replay(start.tiles, cols, want["path"]) == goal.tiles
            assert replay(start.tiles, cols, got.path) == goal.tiles
        # The same algorithm gives the same path, and the same statistics.
        fixed = ["--algo", "idastar", "--heuristic", "linear-conflict"]
        want = cli.solve_json(start.format("flat"), *args, *fixed)
        got = npuzzle.solve(start, goal, algorithm="idastar", heuristic="linear-conflict").to_dict()
        assert got["path"] == want["path"] and got["moves"] == want["moves"]
        for key in ("expanded", "generated", "peak_states"):
            assert got["stats"][key] == want["stats"][key]
        assert got["plan"] == want["plan"]


def test_15_puzzle_walks_and_count_start_agree_with_the_cli(cli):
    for seed in range(4):
        start = npuzzle.Board.random(4, 4, seed=seed, moves=30)
        want = cli.solve_json(start.format("rows"), "--heuristic", "linear-conflict", "--count-start")
        got = npuzzle.solve(start, heuristic="linear-conflict", count_start=True)
        assert got.moves == want["moves"] and got.path == want["path"]
        assert got.to_dict()["stats"]["expanded"] == want["stats"]["expanded"]


def test_unreachable_goals_agree_with_the_cli(cli):
    want = cli.solve_json("1 2 3 4 5 6 8 7 0")
    got = npuzzle.solve("1 2 3 4 5 6 8 7 0").to_dict()
    assert want["moves"] == got["moves"] == -1
    assert want["algorithm"] == got["algorithm"] == "parity"


@pytest.mark.parametrize(
    "args",
    [
        ["1 2 3 4 5 6 7 8 8"],
        ["1 2 3 4 5 6 7 0 9"],
        ["1 2 3 x"],
        ["1 2 3/4 5"],
        ["1 2 3 4"],
        ["1 2 3 4 5 6 7 8 0", "--goal", "1 2 3 0"],
        ["1 2 3 4 5 6 7 8 0", "--goal", "sideways"],
        ["1 2 3 4 5 6 7 8 0 | spiral", "--goal", "spiral"],
        ["1 2 3 4 5 6 7 8 0 | 1 2 3 4 5 6 7 8 8"],
        ["2x2 board"],
    ],
)
def test_bad_boards_get_the_cli_message(cli, args):
    out = cli.run("solve", *args)
    assert out.returncode == 2
    message = out.stderr.strip()
    assert message.startswith("npuzzle: ")
    goal = args[2] if len(args) > 1 else None
    with pytest.raises(ValueError) as e:
        npuzzle.solve(args[0], goal)
    assert str(e.value) == message[len("npuzzle: ") :]


def test_compare_agrees_with_the_cli(cli):
    start, goal = "2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2"
    out = cli.run("compare", start, "--goal", goal, "--json", "--pdb-dir", cli.pdb_dir)
    assert out.returncode == 0, out.stderr
    want = json.loads(out.stdout)
    got = npuzzle.compare(start, goal, pdb_dir=cli.pdb_dir)
    assert [(r["algorithm"], r["heuristic"], r["moves"]) for r in got] == [
        (r["algorithm"], r["heuristic"], r["moves"]) for r in want
    ]
    assert [r["expanded"] for r in got[1:]] == [r["expanded"] for r in want[1:]]
