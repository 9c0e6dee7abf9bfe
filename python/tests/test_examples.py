"""The example scripts run as their docstrings say, with or without
matplotlib and pandas."""

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "compare_algorithms.py"


def test_compare_algorithms_example(tmp_path):
    chart = tmp_path / "nodes.png"
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "8 6 7 2 5 4 3 0 1", "--plot", str(chart)],
        cwd=tmp_path,
        # matplotlib keeps a font cache under XDG_CACHE_HOME unless told otherwise.
        env={**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "31 moves:" in out.stdout
    assert "all answers agree: {31}" in out.stdout
    assert "idastar" in out.stdout and "linear-conflict" in out.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "pip install matplotlib" in out.stdout
    else:
        assert chart.stat().st_size > 0


TRACE = EXAMPLE.with_name("trace_search.py")


def test_trace_search_example(tmp_path):
    page = tmp_path / "trace.html"
    out = subprocess.run(
        [sys.executable, str(TRACE), "--html", str(page)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "2 8 3/1 6 4/7 0 5  ->  1 2 3/8 0 4/7 6 5: 5 moves, UULDR"
    # one row per search, every one finding 5 moves
    rows = [line.split() for line in lines[3:10]]
    assert [r[0] for r in rows] == ["bfs", "bibfs", "astar", "wastar", "greedy", "idastar", "dfid"]
    assert all(r[2] == "5" for r in rows)
    assert "    4       14  " in out.stdout  # BFS's layer at depth 4
    assert "bidirectional BFS met 3 moves from the start, 2 from the goal" in out.stdout
    try:
        import pandas  # noqa: F401
    except ImportError:
        assert "pip install pandas" in out.stdout
    else:
        assert "A*'s children by fate: queued" in out.stdout
    text = page.read_text(encoding="utf-8")
    assert text.count("<table") == 7 and text.count("<svg") == 6 + 2 * 7
