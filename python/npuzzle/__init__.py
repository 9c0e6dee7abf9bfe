"""Exact solver for sliding-tile puzzles: the 8-puzzle, the 15-puzzle, any
R×C board from 2×2 to 16×16, built from the npuzzle Rust crate.

>>> import npuzzle
>>> sol = npuzzle.solve("2 8 3 1 6 4 7 0 5", goal="1 2 3 8 0 4 7 6 5")
>>> sol.moves, sol.path
(5, 'UULDR')

`solve` answers one puzzle (moves, an optimal path, the algorithm that
answered and what it cost), `compare` runs every algorithm on one puzzle,
`solve_many` answers a NumPy array of boards on every core, `trace` watches
one search at work (its layers, expansions, iterations and events),
`analyse` says how far from the goal each of a sequence of moves stands,
`verify` whether moves solve a puzzle and how far from the fewest they are,
`simplify`, `invert`, `transpose` and `length` work on written moves, and
`Board` parses, prints and moves boards (and draws them in Jupyter).
"""

try:
    from ._npuzzle import (
        Board, BudgetExceeded, Solution, Stats, Trace, analyse, compare, invert, length, simplify,
        solve, solve_many, trace, transpose, verify,
    )
except ImportError as _missing:  # pragma: no cover - only from a source checkout
    raise ImportError(
        "npuzzle's compiled extension is missing: this is the source folder. "
        "Install the package (pip install ./python) and import it from elsewhere."
    ) from _missing

__all__ = [
    "Board", "BudgetExceeded", "Solution", "Stats", "Trace", "analyse", "compare", "invert", "length",
    "simplify", "solve", "solve_many", "trace", "transpose", "verify",
]
__version__ = "0.1.0"
