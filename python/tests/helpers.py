"""Plain-Python answers the tests check the package against: moves replayed
on tuples and a breadth-first search, independent of the library."""

from collections import deque

# Moves name the direction the blank travels.
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def replay(tiles, cols, path):
    """The tiles after `path`, applied in plain Python (an illegal move is
    an AssertionError)."""
    tiles = list(tiles)
    rows = len(tiles) // cols
    for m in path:
        b = tiles.index(0)
        r, c = divmod(b, cols)
        dr, dc = STEP[m]
        r2, c2 = r + dr, c + dc
        assert 0 <= r2 < rows and 0 <= c2 < cols, f"move {m} leaves the board"
        o = r2 * cols + c2
        tiles[b], tiles[o] = tiles[o], tiles[b]
    return tuple(tiles)


def bfs_distances(goal, cols, depth=None):
    """Distance to `goal` of every board that can reach it (within `depth`
    moves, if given), by a plain breadth-first search over tuples,
    independent of the library."""
    goal = tuple(goal)
    rows = len(goal) // cols
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        t = queue.popleft()
        d = dist[t] + 1
        if depth is not None and d > depth:
            break
        b = t.index(0)
        r, c = divmod(b, cols)
        for dr, dc in STEP.values():
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < rows and 0 <= c2 < cols:
                o = r2 * cols + c2
                n = list(t)
                n[b], n[o] = n[o], n[b]
                n = tuple(n)
                if n not in dist:
                    dist[n] = d
                    queue.append(n)
    return dist
