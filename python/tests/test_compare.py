"""npuzzle.compare: one row per algorithm and heuristic, all agreeing, as
plain dicts that pandas takes as they are."""

import pytest

import npuzzle

KEYS = {"algorithm", "heuristic", "moves", "expanded", "generated", "peak_states", "seconds", "skipped"}


def test_rows_agree_and_carry_the_costs(pdb_dir):
    rows = npuzzle.compare("2 6 4 1 3 7 0 5 8", goal="8 1 5 7 3 6 4 0 2", pdb_dir=pdb_dir)
    assert len(rows) == 13
    assert all(set(r) == KEYS for r in rows)
    assert {r["moves"] for r in rows} == {31}
    assert all(r["skipped"] is None for r in rows)
    by = {(r["algorithm"], r["heuristic"]): r for r in rows}
    assert by[("table", None)]["peak_states"] == 181440  # 9!/2 positions
    # Stronger heuristics expand fewer nodes.
    ida = [by[("idastar", h)]["expanded"] for h in ("misplaced", "manhattan", "linear-conflict")]
    assert ida == sorted(ida, reverse=True)
    # The same numbers as one solve with the same algorithm.
    one = npuzzle.solve("2 6 4 1 3 7 0 5 8", "8 1 5 7 3 6 4 0 2", algorithm="astar", heuristic="manhattan")
    assert by[("astar", "manhattan")]["expanded"] == one.stats.expanded


def test_unreachable_and_skipped_rows(pdb_dir):
    rows = npuzzle.compare("1 2 3 4 5 6 8 7 0", pdb_dir=pdb_dir)
    assert {r["moves"] for r in rows} == {-1}
    # A 15-puzzle: breadth-first search is skipped when its growth plainly
    # exceeds its budget, and the row says why.
    # (Korf's goal and 5-5-5, as test_solve: the databases are built once.)
    start = npuzzle.Board.random(4, 4, seed=2, moves=40, goal="blank-first")
    budget = {"max_states": 20_000, "max_nodes": 2_000_000}
    rows = npuzzle.compare(start, "blank-first", budget=budget, partition="5-5-5", pdb_dir=pdb_dir)
    skipped = [r for r in rows if r["skipped"]]
    assert skipped and all(r["moves"] is None for r in skipped)
    answers = {r["moves"] for r in rows if r["moves"] is not None}
    assert len(answers) == 1
    assert npuzzle.solve(start, "blank-first", heuristic="linear-conflict").moves in answers


def test_rows_make_a_dataframe(pdb_dir):
    pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
    rows = npuzzle.compare("2 8 3 1 6 4 7 0 5", goal="spiral", pdb_dir=pdb_dir)
    df = pd.DataFrame(rows)
    assert list(df.columns) == [
        "algorithm",
        "heuristic",
        "moves",
        "expanded",
        "generated",
        "peak_states",
        "seconds",
        "skipped",
    ]
    assert len(df) == 13 and (df["moves"] == 5).all()
    assert df.set_index(["algorithm", "heuristic"]).loc[("bfs", None), "expanded"] > 0
