"""The pictures Jupyter shows: a board as SVG, a solution as a strip of
boards, a trace as its totals and per-depth table. Each is well-formed XML,
parsed here as such."""

import xml.etree.ElementTree as ET

import pytest

import npuzzle

SVG = "{http://www.w3.org/2000/svg}"
START, GOAL = "2 8 3 1 6 4 7 0 5", "1 2 3 8 0 4 7 6 5"


def numbers_in_reading_order(svg):
    """The tile numbers of a board's picture, ordered by where they are
    drawn (top to bottom, left to right)."""
    texts = svg.findall(f"{SVG}text")
    placed = sorted((float(t.get("y")), float(t.get("x")), t.text) for t in texts)
    return [int(text) for _, _, text in placed]


@pytest.mark.parametrize(
    "board",
    [
        npuzzle.Board(START),
        npuzzle.Board("2 3 1 0"),
        npuzzle.Board([1, 2, 3, 4, 5, 6, 0, 7], shape=(2, 4)),
        npuzzle.Board.random(4, 4, seed=5),
        npuzzle.Board.random(3, 7, seed=2),
        npuzzle.Board.random(16, 16, seed=3),
    ],
    ids=["3x3", "2x2", "2x4", "4x4", "3x7", "16x16"],
)
def test_board_svg_draws_each_tile_where_it_is(board):
    svg = ET.fromstring(board._repr_svg_())
    assert svg.tag == f"{SVG}svg"
    # one number per tile, the blank left empty, each in its cell
    assert numbers_in_reading_order(svg) == [t for t in board.tiles if t != 0]
    assert len(svg.findall(f"{SVG}text")) == board.rows * board.cols - 1
    # a frame and a rounded square per tile
    rects = svg.findall(f"{SVG}rect")
    assert len(rects) == board.rows * board.cols and all(r.get("rx") for r in rects)
    assert svg.find(f"{SVG}title").text.endswith(board.format("rows"))
    assert float(svg.get("width")) <= 500  # a 16x16 board shrinks to fit


def figures(html):
    """The boards of an HTML strip and their captions."""
    root = ET.fromstring(html)
    figs = root.iter("figure")
    return [(f.find(f"{SVG}svg"), f.find("figcaption").text) for f in figs], root


def test_solution_strip_has_a_board_per_move():
    sol = npuzzle.solve(START, GOAL)
    figs, root = figures(sol._repr_html_())
    assert len(figs) == sol.moves + 1
    assert [c for _, c in figs] == ["start", *sol.path]
    drawn = [numbers_in_reading_order(svg) for svg, _ in figs]
    assert drawn == [[t for t in b.tiles if t != 0] for b in sol.boards()]
    assert "5 moves" in "".join(root.find("p").itertext())


def test_a_long_strip_is_cut_and_counted():
    start = npuzzle.Board.random(6, 6, seed=4)
    sol = npuzzle.solve(start, algorithm="fast")
    assert sol.moves > 60
    html = sol._repr_html_()
    figs, _ = figures(html)
    assert len(figs) == 60
    assert f"… {sol.moves + 1 - 60} more" in html


def test_a_strip_without_a_path_shows_both_ends():
    for sol in (npuzzle.solve(START, GOAL, path=False), npuzzle.solve("1 2 3 4 5 6 8 7 0")):
        figs, root = figures(sol._repr_html_())
        assert [c for _, c in figs] == ["start", "goal"]
    assert "cannot be reached" in "".join(root.find("p").itertext())


def table_rows(html):
    root = ET.fromstring(html)
    rows = [[c.text for c in tr] for tr in root.iter("tr")]
    return rows[0], rows[1:], root


@pytest.mark.parametrize(
    "algorithm,header,summary",
    [
        ("bfs", ["depth", "states first reached"], lambda t: [[d, n] for d, n in enumerate(t.layers)]),
        ("astar", ["f = g + h", "expanded"], lambda t: t.expanded_by_f),
        ("idastar", ["bound", "expanded"], lambda t: [[i["bound"], i["expanded"]] for i in t.iterations]),
        (
            "bibfs",
            ["depth", "forward", "backward"],
            lambda t: [[d, f, b] for d, (f, b) in enumerate(zip(t.forward_layers, t.backward_layers))],
        ),
    ],
)
def test_trace_html_shows_the_per_depth_table(algorithm, header, summary):
    t = npuzzle.trace("8 6 7 2 5 4 3 0 1", algorithm=algorithm, heuristic="auto", max_events=0)
    head, rows, root = table_rows(t._repr_html_())
    assert head == header
    assert [[int(c) for c in r] for r in rows] == summary(t)
    figs, _ = figures(t._repr_html_())
    assert [c for _, c in figs] == ["start", "goal"]
    assert f"{t.moves} moves" in "".join(root.find("p").itertext())
