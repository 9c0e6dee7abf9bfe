"""Type stubs of npuzzle's compiled extension (re-exported by `npuzzle`).

The names starting with `_` (board-like values, budgets, compare rows)
exist for type checkers only."""

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any, Literal, Optional, Tuple, TypedDict, Union, final

import numpy as np
import numpy.typing as npt

__all__ = ["Board", "BudgetExceeded", "Solution", "Stats", "compare", "solve", "solve_many"]

_BoardLike = Union[str, "Board", Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer[Any]]]
"""A board: text in any format the command line reads (`"2 8 3 1 6 4 7 0 5"`,
`"2 8 3/1 6 4/7 0 5"`, `"283164705"`, `"[[2,8,3],[1,6,4],[7,0,5]]"`, the blank
as `0`, `_` or `.`), a `Board`, a flat sequence of ints, a list of rows, or a
NumPy array."""

_GoalLike = Union[_BoardLike, Literal["blank-last", "blank-first", "spiral"], None]
"""A goal: a board, or a goal name (`blank-last`: `1 2 … 0`; `blank-first`:
`0 1 2 …`, Korf's; `spiral`: the snail, `1 2 3/8 0 4/7 6 5` on 3×3). `None`
is blank-last, unless the start's text holds a goal (`"START | GOAL"`)."""

_ShapeLike = Union[Tuple[int, int], str, int, None]
"""A board size: `(rows, cols)`, `"2x4"`, or `n` for n×n; sides from 2 to 16."""

_Algorithm = Literal[
    "auto", "table", "bfs", "bfs-hash", "bfs-set", "bibfs", "astar", "idastar", "wastar", "greedy",
    "dfid", "anytime", "fast",
]
_Heuristic = Literal["auto", "misplaced", "manhattan", "linear-conflict", "pdb"]

class _BudgetDict(TypedDict, total=False):
    """Limits on one search (every key optional; the defaults are the
    command line's)."""

    timeout: Optional[float]
    """Wall-clock limit in seconds (database builds included); None: none."""
    max_nodes: int
    """Most node expansions of a depth-first search (IDA*)."""
    max_states: int
    """Most states a memory-bound search (BFS, bidirectional BFS, A*) may hold."""
    max_memory: Union[int, str]
    """Most bytes a search may hold: an int, or a size such as "512M" or "8G"."""

class BudgetExceeded(RuntimeError):
    """A search stopped because one of its budgets ran out (or plainly would).

    The message is the library's: which budget, how far the search got, and
    the `budget=` key that raises it. It pickles with `limit` and `stats`,
    so a spent budget in a process pool arrives as itself."""

    limit: Optional[Literal["states", "nodes", "time", "memory"]]
    """Which budget ran out."""
    stats: Optional[Stats]
    """What the search cost until it stopped (None if no search ran)."""

@final
class Board:
    """A sliding-tile board: `rows × cols` cells holding the tiles
    `1 … rows·cols − 1` and the blank, `0`. Immutable, hashable, picklable,
    and ordered: by shape (rows, then columns), then by the tiles in
    reading order, so that `sorted` groups the boards of one size.

    `Board(tiles, shape=None)` reads any `_BoardLike`; the size comes from the
    rows, else from a square tile count, else from `shape=`. A bad board is a
    `ValueError` naming the problem and where it is:

    >>> Board("2 8 3/1 6 4/7 0 5")
    Board('2 8 3/1 6 4/7 0 5')
    >>> Board([1, 2, 3, 4, 5, 6, 0, 7], shape=(2, 4)).rows
    2
    """

    def __new__(cls, tiles: _BoardLike, shape: _ShapeLike = None) -> Board: ...
    @classmethod
    def parse(cls, text: _BoardLike, shape: _ShapeLike = None) -> Board:
        """Reads a board from text in any format the command line reads."""
    @staticmethod
    def goal(rows: int, cols: int, name: Literal["blank-last", "blank-first", "spiral"] = "blank-last") -> Board:
        """The goal layout `name` on a `rows × cols` board."""
    @staticmethod
    def random(
        rows: int,
        cols: int,
        seed: Optional[int] = None,
        moves: Optional[int] = None,
        goal: _GoalLike = None,
    ) -> Board:
        """A random board that can reach `goal` (default blank-last): uniform
        over all such boards, or, with `moves=k`, a walk of `k` random moves
        from the goal (never straight back), so at most `k` moves away. The
        same `seed` gives the same board on any machine (the first board
        `npuzzle random --seed` writes)."""
    @property
    def rows(self) -> int:
        """Number of rows."""
    @property
    def cols(self) -> int:
        """Number of columns."""
    @property
    def shape(self) -> Tuple[int, int]:
        """`(rows, cols)`."""
    @property
    def tiles(self) -> Tuple[int, ...]:
        """The tiles in reading order, `0` for the blank."""
    @property
    def blank(self) -> int:
        """The blank's cell, counted in reading order from 0."""
    def to_list(self) -> list[list[int]]:
        """The tiles as a list of rows."""
    def format(self, style: Literal["grid", "rows", "flat"] = "grid") -> str:
        """The board as text: `grid` (one row per line, the blank as `_`),
        `rows` (`2 8 3/1 6 4/7 0 5`) or `flat` (`2 8 3 1 6 4 7 0 5`)."""
    def is_solvable(self, goal: _GoalLike = None) -> bool:
        """Whether `goal` (default blank-last) can be reached from this
        board, decided from permutation parity."""
    def neighbors(self) -> list[Tuple[str, Board]]:
        """The boards one move away, as `(move, board)` pairs in the order
        `U`, `D`, `L`, `R` (the direction the blank travels)."""
    def _repr_svg_(self) -> str:
        """For Jupyter: the board as an SVG picture (tiles as rounded squares
        with their numbers, one `<text>` each, the blank empty)."""
    def apply(self, path: str) -> Board:
        """The board after the moves of `path` (`U`, `D`, `L`, `R`: the
        direction the blank travels). A letter that is no move, or a move
        off the board, is a `ValueError` naming it."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __lt__(self, other: Board, /) -> bool: ...
    def __le__(self, other: Board, /) -> bool: ...
    def __gt__(self, other: Board, /) -> bool: ...
    def __ge__(self, other: Board, /) -> bool: ...

@final
class Stats:
    """What one search cost. Equal when every field is; picklable."""

    def __new__(
        cls, expanded: int = 0, generated: int = 0, peak_states: int = 0, seconds: float = 0.0
    ) -> Stats: ...

    @property
    def expanded(self) -> int:
        """Nodes whose successors were generated."""
    @property
    def generated(self) -> int:
        """Successors generated (duplicates included)."""
    @property
    def peak_states(self) -> int:
        """Most states held in memory at once."""
    @property
    def seconds(self) -> float:
        """Wall-clock time of the search."""
    def as_dict(self) -> dict[str, Union[int, float]]:
        """The statistics as a dict."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Solution:
    """The answer to one problem. Equal when every field is (its stats
    included); picklable, so it crosses process pools."""

    @property
    def moves(self) -> Optional[int]:
        """The fewest moves (plus one with `count_start=True`), or None when
        the goal cannot be reached. When `optimal` is False, the moves of
        the path found (at most `ratio` times the fewest)."""
    @property
    def solvable(self) -> bool:
        """Whether the goal can be reached."""
    @property
    def path(self) -> Optional[str]:
        """An optimal path as a `UDLR` string (the direction the blank
        travels); None when not asked for (`path=False`) or unreachable."""
    def boards(self) -> list[Board]:
        """Every board along the path, the start first and the goal last
        (empty when unreachable; a `ValueError` when solved with
        `path=False`)."""
    @property
    def start(self) -> Board:
        """The board the moves start from."""
    @property
    def goal(self) -> Board:
        """The board the moves reach."""
    @property
    def optimal(self) -> bool:
        """Whether `moves` is proven to be the fewest (always, unless a
        bounded-suboptimal algorithm answered: `wastar`, `anytime`)."""
    @property
    def lower_bound(self) -> Optional[int]:
        """For an answer not proven optimal: the fewest moves are at least
        this many."""
    @property
    def ratio(self) -> Optional[float]:
        """For an answer not proven optimal: at most this many times the
        fewest (`moves / lower_bound`)."""
    @property
    def algorithm(self) -> str:
        """The algorithm that answered (`table`, `idastar`, …; `parity` when
        the goal was found unreachable without a search)."""
    @property
    def heuristic(self) -> Optional[str]:
        """The heuristic it used, if any."""
    @property
    def plan(self) -> Optional[str]:
        """What the planner chose, and why."""
    @property
    def stats(self) -> Stats:
        """What the search cost."""
    def to_dict(self) -> dict[str, Any]:
        """The answer with the keys of `npuzzle solve --json` (`moves` is -1
        when unreachable)."""
    def _repr_html_(self) -> str:
        """For Jupyter: the answer in a line, then every board from the start
        to the goal as small pictures, each under its move (the first 60,
        then how many more)."""
    def __eq__(self, other: object, /) -> bool: ...

class _CompareRow(TypedDict):
    """One row of `compare`."""

    algorithm: str
    heuristic: Optional[str]
    moves: Optional[int]
    """Fewest moves found; -1 when unreachable; None when skipped or stopped."""
    expanded: int
    generated: int
    peak_states: int
    seconds: float
    skipped: Optional[str]
    """Why this combination was not run, or why it stopped."""

def solve(
    start: _BoardLike,
    goal: _GoalLike = None,
    *,
    algorithm: _Algorithm = "auto",
    heuristic: _Heuristic = "auto",
    path: bool = True,
    count_start: bool = False,
    budget: Optional[_BudgetDict] = None,
    shape: _ShapeLike = None,
    threads: int = 1,
    weight: float = 1.5,
    optimal: bool = False,
    partition: str = "auto",
    also_partitions: Sequence[str] = (),
    pdb_dir: Union[str, PathLike[str], None] = None,
) -> Solution:
    """Solves one puzzle: the fewest moves from `start` to `goal` and, unless
    `path=False`, an optimal path.

    - `algorithm`, `heuristic`: as the command line's `--algo` and
      `--heuristic`; `auto` is the planner's choice (`Solution.plan` says why).
    - `count_start`: count the start as step 1 (the convention of some
      textbooks).
    - `budget`: limits on the search (`_BudgetDict`); a spent budget raises
      `BudgetExceeded`.
    - `shape`: the size, when the tiles alone do not give it.
    - `threads`: workers of one IDA* search (0: every core).
    - `weight`: the weight of `wastar` (answers at most `weight` times the
      fewest moves); `optimal=True` refuses any answer not proven optimal.
    - `partition`: pattern databases, as `--pdb` (`6-6-3`, `7-8`, …).
    - `also_partitions`: up to two more partitions, as `--pdb-also`: the
      estimate is the largest of the partitions' sums (more pruning, for the
      memory and build of each set).
    - `pdb_dir`: where pattern databases are cached (default
      `$XDG_CACHE_HOME/npuzzle`, shared with the command line); the first
      15-puzzle solved builds them (seconds).

    Bad input raises `ValueError` with the command line's message, a spent
    budget `BudgetExceeded`, a failure of the machine `OSError`; Ctrl-C stops
    a long search (`KeyboardInterrupt`).

    >>> solve("2 8 3 1 6 4 7 0 5", goal="1 2 3 8 0 4 7 6 5").path
    'UULDR'
    """

def compare(
    start: _BoardLike,
    goal: _GoalLike = None,
    *,
    shape: _ShapeLike = None,
    budget: Optional[_BudgetDict] = None,
    partition: str = "auto",
    also_partitions: Sequence[str] = (),
    pdb_dir: Union[str, PathLike[str], None] = None,
) -> list[_CompareRow]:
    """Runs every algorithm and heuristic that applies to one puzzle and
    returns one row per combination (as `npuzzle compare --json`), ready for
    `pandas.DataFrame(rows)`. A search whose growth plainly exceeds its
    budget is skipped, with the reason in `skipped`. Default budgets:
    10,000,000 states and 1,000,000,000 nodes per search."""

def solve_many(
    starts: npt.ArrayLike,
    goals: Union[npt.ArrayLike, Literal["blank-last", "blank-first", "spiral"], None] = None,
    *,
    shape: _ShapeLike = None,
    algorithm: _Algorithm = "auto",
    heuristic: _Heuristic = "auto",
    count_start: bool = False,
    budget: Optional[_BudgetDict] = None,
    partition: str = "auto",
    also_partitions: Sequence[str] = (),
    pdb_dir: Union[str, PathLike[str], None] = None,
) -> npt.NDArray[np.int32]:
    """The fewest moves for many boards at once.

    `starts` is an integer array of shape (N, cells), one board a row (any
    integer dtype, int8 to uint64, in either byte order, any strides; native
    uint8 is copied fastest). `goals` is one goal of shape
    (cells,) for every start, one per start of shape (N, cells), a goal name,
    or None (blank-last). `shape=(rows, cols)` when cells is not a square.
    Returns N move counts (int32), -1 where the goal cannot be reached.

    Every board is checked first: a row that is not a permutation raises
    `ValueError` naming it (`starts[17]: tile 8 appears twice …`) before any
    answer is computed. Boards of at most 10 cells are answered from the
    complete tables, other boards by search (one board per task); always on
    every core with the GIL released, always proven optimal. Ctrl-C stops it.

    >>> import numpy as np
    >>> solve_many(np.array([[2, 8, 3, 1, 6, 4, 7, 0, 5]]), "spiral")
    array([5], dtype=int32)
    """
