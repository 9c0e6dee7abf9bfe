"""Shared fixtures: a cache directory of the tests' own, the command line,
and independent answers (a plain breadth-first search in Python)."""

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from helpers import bfs_distances

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def cache_home(tmp_path_factory):
    """Every pattern database the tests build goes to a temporary folder,
    never into the user's cache (the library's default is
    $XDG_CACHE_HOME/npuzzle)."""
    home = tmp_path_factory.mktemp("xdg-cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(home)
    yield home
    if old is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = old


def cli_command():
    """The `npuzzle` command: $NPUZZLE_BIN (set by .ci/run), else a release
    build through cargo from the repository's root."""
    binary = os.environ.get("NPUZZLE_BIN")
    if binary:
        return [binary]
    if shutil.which("cargo") is None:
        pytest.skip("no npuzzle binary: set NPUZZLE_BIN or install cargo")
    return ["cargo", "run", "--release", "--quiet", "--"]


class Cli:
    def __init__(self, pdb_dir):
        self.command = cli_command()
        self.pdb_dir = pdb_dir

    def run(self, *args, stdin=None):
        """Runs `npuzzle ARGS` from the repository's root."""
        return subprocess.run(
            [*self.command, *map(str, args)],
            cwd=REPO,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def solve_json(self, start, *args):
        out = self.run("solve", start, "--json", "--pdb-dir", self.pdb_dir, *args)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    return Cli(tmp_path_factory.mktemp("cli-pdb"))


@pytest.fixture(scope="session")
def pdb_dir(tmp_path_factory):
    """One pattern-database folder for the whole run (databases built once)."""
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="session")
def bfs():
    """`bfs(goal, cols, depth=None)`: distances from a plain BFS, each goal
    searched once."""
    cache = {}

    def distances(goal, cols, depth=None):
        key = (tuple(goal), cols, depth)
        if key not in cache:
            cache[key] = bfs_distances(goal, cols, depth)
        return cache[key]

    return distances


@pytest.fixture
def sigint_raises():
    """Ctrl-C raises KeyboardInterrupt during the test, whatever this
    process inherited: a shell that starts a job in the background makes it
    ignore SIGINT, and Python then leaves it ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
