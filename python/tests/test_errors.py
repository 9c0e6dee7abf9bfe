"""Every kind of error: ValueError for bad input (the command line's
message), BudgetExceeded for each budget, OSError when the machine fails,
KeyboardInterrupt for Ctrl-C, and warnings from the database cache."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

import npuzzle

# A random solvable 15-puzzle, some fifty moves from blank-last: hours for
# IDA* with misplaced tiles.
HARD = npuzzle.Board.random(4, 4, seed=11)


@pytest.mark.parametrize(
    "start,goal,message",
    [
        ("1 2 3 4 5 6 7 8 8", None, "start board: tile 8 appears twice"),
        ("1 2 3 4 5 6 7 8 0", "1 2 3 0", "the start board is 3x3 but the goal board is 2x2"),
        ("1 2 3 4 5 6 7 8 0", "sideways", "goal board: 'sideways' is not a goal name"),
        ("1 2 3 4 5 6 7 8 0 | spiral", "spiral", "the input already holds a goal"),
        ("1 2 3 4 5 6 7 0", None, "start board: cannot infer the board size from 8 tiles"),
        ([[1, 2], [3]], None, "start board: row 2 has 1 tiles but row 1 has 2"),
        # Ints are numbers, never digit strings (this was "tile 4 appears twice").
        ([49, 50, 48, 51], None, r"^start board: number 49 at row 1, column 1 is out of range: a 2x2"),
        ("1 2 3 0", [49, 50, 48, 51], r"^goal board: number 49 at row 1, column 1 is out of range"),
        ([12, 30], None, r"^start board: 2 tiles do not fill a 2x2 board"),
        # This said "row 1 has 0 tiles but row 1 has 0".
        ([[]], None, r"^start board: row 1 is empty$"),
        ("1 2 3 0", [[]], r"^goal board: row 1 is empty$"),
    ],
)
def test_bad_input_is_a_value_error(start, goal, message):
    with pytest.raises(ValueError, match=message):
        npuzzle.solve(start, goal)


def test_bad_options_are_value_or_type_errors():
    board = "1 2 3 4 5 6 7 0 8"
    with pytest.raises(ValueError, match="'dfs' is not an algorithm; use one of auto, table"):
        npuzzle.solve(board, algorithm="dfs")
    with pytest.raises(ValueError, match="'euclid' is not a heuristic"):
        npuzzle.solve(board, heuristic="euclid")
    with pytest.raises(ValueError, match="table cannot solve a 4x4 board"):
        npuzzle.solve(HARD, algorithm="table")
    with pytest.raises(ValueError, match="pdb cannot solve a 9x9 board"):
        npuzzle.solve(npuzzle.Board.goal(9, 9), heuristic="pdb")
    with pytest.raises(ValueError, match="weight must be a number from 1 to 100"):
        npuzzle.solve(board, algorithm="wastar", weight=0.5)
    with pytest.raises(ValueError, match="each side must be from 2 to 16"):
        npuzzle.solve(board, shape=(1, 9))


@pytest.mark.parametrize(
    "budget,error,message",
    [
        ({"max_time": 3}, ValueError, "budget has no key 'max_time'; its keys are timeout, max_nodes"),
        ({"timeout": -1}, ValueError, r"budget\['timeout'\] must be a positive number of seconds, not -1"),
        ({"timeout": "2s"}, TypeError, r"budget\['timeout'\] must be a number of seconds, not str"),
        ({"max_nodes": 0}, ValueError, r"budget\['max_nodes'\] must be a positive int, not 0"),
        ({"max_states": 1.5}, TypeError, r"budget\['max_states'\] must be an int, not float"),
        ({"max_states": True}, TypeError, r"budget\['max_states'\] must be an int, not bool"),
        ({"max_memory": "lots"}, ValueError, r"budget\['max_memory'\]: 'lots' is not a size"),
        ({1: 2}, TypeError, "budget keys are strings"),
        (["timeout", 2], TypeError, "budget must be a dict"),
    ],
)
def test_budgets_are_validated(budget, error, message):
    with pytest.raises(error, match=message):
        npuzzle.solve("1 2 3 4 5 6 7 0 8", budget=budget)


def test_valid_budgets_are_accepted():
    sol = npuzzle.solve(
        "1 2 3 4 5 6 7 0 8",
        budget={"timeout": 2.0, "max_nodes": 10**7, "max_states": 10**6, "max_memory": "512M"},
    )
    assert sol.moves == 1
    assert npuzzle.solve("1 2 3 4 5 6 7 0 8", budget={"timeout": None, "max_memory": 10**9}).moves == 1
    assert npuzzle.solve("1 2 3 4 5 6 7 0 8", budget={"max_nodes": 10**30}).moves == 1


@pytest.mark.parametrize(
    "kwargs,limit,message",
    [
        (
            dict(algorithm="idastar", heuristic="manhattan", budget={"max_nodes": 1000}),
            "nodes",
            r"idastar stopped: its node budget \(1000\) was spent after 1000 nodes expanded.*"
            r"\(raise it with budget=\{'max_nodes': …\}\)",
        ),
        (
            dict(algorithm="bfs", budget={"max_states": 5000}),
            "states",
            r"bfs stopped: its state budget \(5000\) was spent",
        ),
        (
            dict(algorithm="idastar", heuristic="misplaced", budget={"timeout": 0.2}),
            "time",
            r"idastar stopped: its time budget \(0.2 s\) was spent",
        ),
        (
            dict(heuristic="pdb", partition="7-8", budget={"max_memory": "1M"}),
            "memory",
            r"the database for tiles .* needs .* over the memory budget of 1.0 MiB",
        ),
    ],
)
def test_each_budget_raises_budget_exceeded(kwargs, limit, message, tmp_path):
    t0 = time.monotonic()
    with pytest.raises(npuzzle.BudgetExceeded, match=message) as e:
        npuzzle.solve(HARD, pdb_dir=tmp_path, **kwargs)
    assert isinstance(e.value, RuntimeError)
    assert e.value.limit == limit
    if limit == "memory":
        assert e.value.stats is None  # refused before anything was built
    else:
        assert e.value.stats.expanded > 0
    assert time.monotonic() - t0 < 20
    assert not any(tmp_path.iterdir())  # a stopped build leaves no file


def test_a_spent_budget_in_solve_many_names_its_row():
    starts = np.array([npuzzle.Board.goal(4, 4).tiles] * 3 + [HARD.tiles])
    with pytest.raises(npuzzle.BudgetExceeded, match=r"^starts\[3\]: idastar stopped") as e:
        npuzzle.solve_many(starts, heuristic="manhattan", budget={"max_nodes": 1000})
    assert e.value.limit == "nodes"


def run_python(code, **kwargs):
    """Runs `code` in a fresh interpreter (this one's, with npuzzle)."""
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def test_ctrl_c_stops_a_long_search(tmp_path):
    # (the child sets the handler itself, for the reason `sigint_raises` gives)
    child = run_python(
        f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import npuzzle
        print("ready", flush=True)
        npuzzle.solve("{HARD.format('flat')}", algorithm="idastar", heuristic="misplaced",
                      pdb_dir="{tmp_path}")
        print("finished", flush=True)
        """
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # well into the search
    t0 = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    stopped_in = time.monotonic() - t0
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert child.returncode != 0
    assert stopped_in < 5, f"took {stopped_in:.1f} s to stop"


def test_ctrl_c_stops_solve_many_and_compare(sigint_raises):
    import _thread
    import threading

    starts = np.array([HARD.tiles] * 4)
    for call in (
        lambda: npuzzle.solve_many(starts, heuristic="misplaced"),
        lambda: npuzzle.compare(HARD, budget={"max_nodes": 10**12}),
    ):
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            call()
        timer.join()
        assert time.monotonic() - t0 < 10


@pytest.mark.parametrize(
    "start,kwargs",
    [
        # Stopped seconds after Ctrl-C (23 s in a debug build): inside a
        # subtree, workers watched only their own stop flag, and the first
        # iterations on a large board are split into a few long subtrees.
        (npuzzle.Board.random(16, 16, seed=3), dict(optimal=True, threads=2)),
        # The same with Manhattan distance: the first iteration's subtrees
        # outlast the 30 s timeout, so this stopped only at the deadline.
        (npuzzle.Board.random(16, 16, seed=3), dict(algorithm="idastar", heuristic="manhattan", threads=2)),
        (HARD, dict(algorithm="idastar", heuristic="misplaced", threads=2)),
        (HARD, dict(algorithm="idastar", heuristic="misplaced", threads=0)),
        (HARD, dict(algorithm="idastar", heuristic="misplaced")),
        (npuzzle.Board.random(5, 5, seed=1), dict(algorithm="anytime", heuristic="linear-conflict")),
    ],
    ids=["16x16-auto-2", "16x16-manhattan-2", "4x4-misplaced-2", "4x4-misplaced-all", "4x4-misplaced-1", "5x5-anytime"],
)
def test_ctrl_c_stops_every_search_within_seconds(start, kwargs, sigint_raises):
    import _thread
    import threading

    raised = []

    def interrupt():
        raised.append(time.monotonic())
        _thread.interrupt_main()

    # The first search of a shape in a process builds its move-pruning
    # automaton (about a second on 5x5, polling nothing): paid here, so
    # that only the search itself is timed.
    try:
        npuzzle.solve(start, budget={"timeout": 0.01}, **kwargs)
    except npuzzle.BudgetExceeded:
        pass
    # Each search runs far longer than its timeout without Ctrl-C: should it
    # ever miss the interrupt, the test fails with BudgetExceeded instead
    # of hanging.
    timer = threading.Timer(0.5, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            npuzzle.solve(start, budget={"timeout": 30}, **kwargs)
        stopped = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
    assert raised, "the search ended before the interrupt"
    assert stopped - raised[0] < 5, f"took {stopped - raised[0]:.1f} s to stop"


@pytest.mark.skipif(os.name != "posix", reason="address-space limits are POSIX")
def test_the_machine_failing_is_an_os_error():
    # With no address space left for a thread's stack, the helper thread a
    # long search runs on cannot start.
    child = run_python(
        f"""
        import resource, npuzzle
        used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 20), resource.RLIM_INFINITY))
        try:
            npuzzle.solve("{HARD.format('flat')}", heuristic="manhattan")
        except OSError as e:
            print("OSError:", e)
        """
    )
    out, err = child.communicate(timeout=60)
    assert out.startswith("OSError: cannot start a search thread"), (out, err)


def test_a_cache_that_cannot_be_written_is_a_warning(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # IDA* named: `auto` answers from the complete table once any test in
        # this process has built it, and would ask for no database at all.
        sol = npuzzle.solve(
            "8 6 7 2 5 4 3 0 1", algorithm="idastar", heuristic="pdb", pdb_dir=blocked / "pdb"
        )
    assert sol.moves == 31 and sol.heuristic == "pdb"
    messages = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert any("cannot write the pattern database cache" in m for m in messages), messages
    # The warning points at the caller's line.
    assert all(w.filename == __file__ for w in caught)
