"""The example script runs as its docstring says, with or without
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
