"""Type stubs of npuzzle's compiled extension (re-exported by `npuzzle`).

The names starting with `_` (board-like values, budgets, compare rows)
exist for type checkers only."""

from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any, Literal, Optional, Tuple, TypedDict, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Board", "BudgetExceeded", "Solution", "Stats", "Trace", "analyse", "compare", "solve", "solve_many", "trace",
]

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
    def apply(self, path: str, *, notation: Literal["blank", "tile"] = "blank") -> Board:
        """The board after the moves of `path` (`U`, `D`, `L`, `R` in either
        case, each with an optional count: `R2` = `RR`), read in
        `notation`: `"blank"` (the way the blank travels) or `"tile"` (the
        way the tiles slide). A letter that is no move, or a move off the
        board, is a `ValueError` naming it as written and the board.

        >>> print(Board("1 2 3 4 5 6 7 8 0").apply("U2"))
        1 2 _
        4 5 3
        7 8 6
        >>> Board("1 2 3 4 5 6 7 8 0").apply("D2", notation="tile") == Board("1 2 0 4 5 3 7 8 6")
        True
        """
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
    def metric(self) -> Literal["stm", "mtm"]:
        """How `moves` is counted: single-tile (`"stm"`) or multi-tile
        (`"mtm"`) moves."""
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
    @property
    def iterations(self) -> list[tuple[int, int]]:
        """IDA*'s iterations as `(bound, expanded)` pairs, in order; empty for
        the other searches."""
    def to_dict(self) -> dict[str, Any]:
        """The answer with the keys of `npuzzle solve --json` (`moves` is -1
        when unreachable)."""
    def _repr_html_(self) -> str:
        """For Jupyter: the answer in a line, then every board from the start
        to the goal as small pictures, each under its move (the first 60,
        then how many more)."""
    def __eq__(self, other: object, /) -> bool: ...

class _Iteration(TypedDict):
    """One IDA* (or DFID) iteration of a `Trace`."""

    bound: int
    """Its bound on `f = g + h` (on `g` for DFID)."""
    expanded: int
    """Nodes it expanded."""

class _Meeting(TypedDict):
    """Where a bidirectional search met."""

    board: list[int]
    """The board both searches reached, tiles in reading order."""
    forward: int
    """Its distance from the start."""
    backward: int
    """Its distance from the goal."""

class _Memory(TypedDict):
    """What breadth-first search held."""

    set: str
    """Its visited set (`rank bit array`, a hash set, an ordered set)."""
    visited_bytes: int
    nodes_bytes: int

@final
class Trace:
    """What one watched search did (`npuzzle.trace`): the summary as
    attributes and `summary()`, the events as `events` and `events_frame()`.
    In Jupyter it shows the totals, the start and goal boards and the
    per-depth table.

    Fields the library adds to its summary become attributes too; fields a
    search has none of are `[]` (the lists) or `None`.

    >>> t = trace("2 8 3 1 6 4 7 0 5", goal="1 2 3 8 0 4 7 6 5", algorithm="bfs")
    >>> t.moves, t.layers[:3]
    (5, [1, 3, 5])
    """

    algorithm: str
    """The search that ran (`bfs`, `astar`, `idastar`, …; `parity` when the
    goal was found unreachable without one)."""
    heuristic: Optional[str]
    """Its heuristic, for the informed searches."""
    rows: int
    cols: int
    moves: Optional[int]
    """The moves found (the fewest when `optimal`), None when unreachable."""
    path: Optional[str]
    """Those moves as `UDLR` (the direction the blank travels)."""
    optimal: bool
    """False for the answers of `greedy` and `wastar`."""
    expanded: int
    """Nodes expanded (the goal not counted)."""
    generated: int
    """Successors generated."""
    seconds: float
    max_open: Optional[int]
    """The largest open list or frontier seen (None for IDA* and DFID)."""
    layers: list[int]
    """BFS: the states first reached at each depth from 0 (the goal's
    layer, the last, cut short)."""
    forward_layers: list[int]
    """Bidirectional BFS: the layers of the search from the start."""
    backward_layers: list[int]
    """Bidirectional BFS: the layers of the search from the goal."""
    expanded_by_f: list[list[int]]
    """A*, weighted A*, greedy: `[f, nodes expanded]` pairs in increasing f."""
    iterations: list[_Iteration]
    """IDA*, DFID: each iteration's bound and nodes expanded."""
    meet: Optional[_Meeting]
    """Bidirectional BFS: where the two searches met."""
    memory: Optional[_Memory]
    """BFS: its visited set and the bytes it held."""
    branching_factor: Optional[float]
    """The effective branching factor b*: `1 + b + … + b^moves` is the
    nodes generated plus the root (None for 0 moves or none)."""
    max_events: int
    """Most events kept."""
    events_dropped: int
    """Events the search told past `max_events` (counted, not kept)."""
    @property
    def start(self) -> Board:
        """The board the search started from."""
    @property
    def goal(self) -> Board:
        """The board it looked for."""
    @property
    def events(self) -> list[dict[str, Any]]:
        """The events kept, in order, one dict each (the same list on every
        access): `expanded` (`tiles`, `g`, `h`, `via`, `open`, `closed`,
        `side`, `goal`), `generated` (`tiles`, `g`, `h`, `via`, `fate`:
        `queued`, `duplicate` or `pruned`), `layer` (`depth`, `states`,
        `complete`), `iteration_started` and `iteration` (`bound`,
        `expanded`, `next`), `met` (`tiles`, `forward`, `backward`). Keys a
        search has no value for are left out."""
    def summary(self) -> dict[str, Any]:
        """The summary as a fresh dict (the keys of `npuzzle trace --json`;
        boards as lists of tiles)."""
    def events_frame(self) -> Any:
        """The events as a `pandas.DataFrame`, one row an event and one column
        a key (`event`, `side`, `g`, `h`, `via`, `fate`, …; NaN where an
        event has no such key). `ImportError` without pandas."""
    def _repr_html_(self) -> str:
        """For Jupyter: the totals, the start and goal boards, and the
        per-depth table (BFS layers, IDA* iterations or A* expansions by f)."""
    def __getattr__(self, name: str) -> Any:
        """Any other field of the summary."""

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
    metric: Literal["stm", "mtm"] = "stm",
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
    - `also_partitions`: up to three more partitions, as `--pdb-also`: the
      estimate is the largest of the partitions' sums (more pruning, for the
      memory and build of each set).
    - `pdb_dir`: where pattern databases are cached (default
      `$XDG_CACHE_HOME/npuzzle`, shared with the command line); the first
      15-puzzle solved builds them (seconds).
    - `metric`: how moves are counted, `"stm"` (single-tile moves) or
      `"mtm"` (multi-tile moves: sliding a run of tiles of the blank's row
      or column at once is one move); the path is the blank's single steps
      either way.

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
    metric: Literal["stm", "mtm"] = "stm",
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

def trace(
    start: _BoardLike,
    goal: _GoalLike = None,
    *,
    algorithm: _Algorithm = "astar",
    heuristic: _Heuristic = "auto",
    max_events: int = 10_000,
    budget: Optional[_BudgetDict] = None,
    shape: _ShapeLike = None,
    weight: float = 1.5,
    partition: str = "auto",
    also_partitions: Sequence[str] = (),
    pdb_dir: Union[str, PathLike[str], None] = None,
) -> Trace:
    """Runs one search watched, as `npuzzle trace` does: what it did layer by
    layer (BFS), by f (A*) or iteration by iteration (IDA*, DFID), its
    effective branching factor, and its first `max_events` events (every
    node expanded, every child generated and what became of it; the totals
    count them all).

    - `algorithm`: `astar` (the default), `bfs`, `bfs-hash`, `bfs-set`,
      `bibfs`, `idastar`, `wastar` (with `weight`), `greedy` or `dfid`;
      the others (`table`, `anytime`, `fast`; `auto` where the planner
      picks one of them) do not report their work: `ValueError`.
    - `heuristic`, `budget`, `shape`, `partition`, `also_partitions`,
      `pdb_dir`: as `solve`'s. A spent budget raises `BudgetExceeded`.
    - `max_events`: the events kept (each holds a board: mind the memory of
      millions); 0 keeps none, the summary is whole all the same.

    Bad input raises `ValueError`; the search runs with the GIL released and
    Ctrl-C stops it (`KeyboardInterrupt`).

    >>> t = trace("2 8 3 1 6 4 7 0 5", goal="1 2 3 8 0 4 7 6 5", algorithm="idastar", heuristic="manhattan")
    >>> t.iterations
    [{'bound': 5, 'expanded': 5}]
    >>> t.events[0]["event"], t.events[1]
    ('iteration_started', {'event': 'expanded', 'tiles': [2, 8, 3, 1, 6, 4, 7, 0, 5], 'g': 0, 'h': 5})
    """

class _AnalysedMove(TypedDict):
    index: int
    move: str
    distance_before: int
    distance_after: int
    progress: bool
    detour: bool

class _Detour(TypedDict):
    first: int
    last: int
    moves: str
    back: bool

class _Analysis(TypedDict):
    metric: Literal["stm", "mtm"]
    moves: int
    optimal: int
    to_go: int
    wasted: Optional[int]
    per_move: list[_AnalysedMove]
    detours: list[_Detour]

def analyse(
    start: _BoardLike,
    moves: str,
    goal: _GoalLike = None,
    *,
    metric: Literal["stm", "mtm"] = "stm",
    notation: Literal["blank", "tile"] = "blank",
    shape: _ShapeLike = None,
    budget: Optional[_BudgetDict] = None,
) -> _Analysis:
    """How far from the goal the moves stand after each one, as
    `npuzzle analyse --json` says: the exact distance before and after
    every move (from the complete tables on boards of up to 10 cells, else
    an exact search per position, up to 16 cells, all within `budget`),
    whether it brought the goal closer, and the detours: from a move that
    did not, to the first move back at the distance it left. On a
    solution, `wasted` (the length less the fewest, `optimal`) is the
    number of the detours' moves; otherwise it is None and `to_go` says
    how far the last board is.

    - `moves`: letters U, D, L, R in either case, each optionally with a
      count (`R2` = `RR`), spaces anywhere between moves.
    - `notation`: `"blank"` (the letter is the way the blank travels) or
      `"tile"` (the way the tiles slide, as speedsolvers write it).
    - `metric`: `"stm"` (each step is a move) or `"mtm"` (each push, a run
      of steps the same way, is one move of the analysis, its distances
      in pushes).

    An illegal move (named as written, with the board), the other parity
    class or a board beyond 16 cells raise `ValueError`; a spent budget
    `BudgetExceeded`; Ctrl-C stops the searches.

    >>> a = analyse("2 8 3 1 6 4 7 0 5", "UULRLDR", goal="1 2 3 8 0 4 7 6 5")
    >>> a["moves"], a["optimal"], a["wasted"]
    (7, 5, 2)
    >>> a["detours"]
    [{'first': 4, 'last': 5, 'moves': 'R L', 'back': True}]
    >>> [m["distance_after"] for m in a["per_move"]]
    [4, 3, 2, 3, 2, 1, 0]
    >>> analyse("2 8 3 1 6 4 7 0 5", "D2 R U L", goal="spiral", notation="tile", metric="mtm")["optimal"]
    4
    """

class _Verdict(TypedDict):
    solves: bool
    stm: int
    mtm: int
    metric: str
    moves: int
    optimal: Optional[int]
    wasted: Optional[int]
    optimal_unknown: Optional[str]
    end: str

def verify(
    start: _BoardLike,
    moves: str,
    goal: _GoalLike = None,
    *,
    metric: Literal["stm", "mtm"] = "stm",
    notation: Literal["blank", "tile"] = "blank",
    shape: _ShapeLike = None,
    budget: Optional[_BudgetDict] = None,
) -> _Verdict:
    """Whether `moves` take `start` to the goal, as `npuzzle verify --json`
    says: `solves`, the length in both metrics (`stm`, `mtm`) and in
    `metric` (`moves`), the board reached (`end`), and for a solution the
    fewest moves (`optimal`, from the tables or an exact search within
    `budget`) and `wasted`. When that search stops, `optimal` is None and
    `optimal_unknown` says why. `moves` and `notation` as for `analyse`; a
    move that cannot be made is a `ValueError` naming it.

    >>> v = verify("2 8 3 1 6 4 7 0 5", "UULRLDR", goal="1 2 3 8 0 4 7 6 5")
    >>> v["solves"], v["moves"], v["optimal"], v["wasted"]
    (True, 7, 5, 2)
    >>> verify("1 2 3 4 5 6 7 0 8", "L", metric="mtm")["end"]
    '1 2 3/4 5 6/0 7 8'
    """

def simplify(
    moves: str,
    *,
    notation: Literal["blank", "tile"] = "blank",
    to: Optional[Literal["blank", "tile"]] = None,
    metric: Literal["stm", "mtm"] = "stm",
    spaced: bool = False,
) -> str:
    """`moves` with every step the next one undoes cancelled, written in
    `to` (default: the notation read), a letter a step (`metric="stm"`) or
    a letter and a count a push (`"mtm"`), spaced or not.

    >>> simplify("ULRDDR")
    'DR'
    >>> simplify("R R R U D", metric="mtm", spaced=True)
    'R3'
    """

def invert(
    moves: str,
    *,
    notation: Literal["blank", "tile"] = "blank",
    to: Optional[Literal["blank", "tile"]] = None,
    metric: Literal["stm", "mtm"] = "stm",
    spaced: bool = False,
) -> str:
    """The moves that undo `moves` (options as for `simplify`).

    >>> invert("UULDR")
    'LURDD'
    >>> invert("R2U2LD", notation="tile", metric="mtm")
    'URD2L2'
    """

def transpose(
    moves: str,
    *,
    notation: Literal["blank", "tile"] = "blank",
    to: Optional[Literal["blank", "tile"]] = None,
    metric: Literal["stm", "mtm"] = "stm",
    spaced: bool = False,
) -> str:
    """`moves` mirrored in the main diagonal (U and L, D and R swapped): a
    solution of the transposed puzzle (options as for `simplify`).

    >>> transpose("UUR")
    'LLD'
    """

def length(
    moves: str,
    *,
    metric: Literal["stm", "mtm"] = "stm",
    notation: Literal["blank", "tile"] = "blank",
) -> int:
    """The number of moves in `moves`, counted in `metric`.

    >>> length("R2U2LD"), length("R2U2LD", metric="mtm")
    (6, 4)
    """
