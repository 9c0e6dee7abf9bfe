"""The Python examples of the READMEs and of docs/python.md run as written,
and print what their comments say: a `print(...)` line ending in `# TEXT`
must print the line TEXT (the lines so marked, in order, among everything
the block prints), unless TEXT starts with a lowercase word (a description,
not output). The blocks of one page run in order in one namespace, as a
reader would type them."""

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "docs" / "python.md", ROOT / "python" / "README.md"]
PRINT_COMMENT = re.compile(r"^\s*print\(.*\)\s*#\s*(?P<expected>.+?)\s*$")


def python_blocks(text):
    """The ```python blocks of a Markdown text, as (first line, code)."""
    blocks, current, first = [], None, 0
    for n, line in enumerate(text.splitlines(), 1):
        if current is None and line.strip() == "```python":
            current, first = [], n + 1
        elif current is not None and line.strip() == "```":
            blocks.append((first, "\n".join(current) + "\n"))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


@pytest.mark.parametrize("readme", READMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run_and_print_what_they_say(readme, monkeypatch, tmp_path):
    blocks = python_blocks(readme.read_text(encoding="utf-8"))
    assert blocks, f"{readme} has no ```python block"
    monkeypatch.chdir(tmp_path)  # anything an example writes lands here
    namespace = {"__name__": "__readme__"}
    for first, code in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{readme.name}:{first}", "exec"), namespace)
        printed = iter(out.getvalue().splitlines())
        for line in code.splitlines():
            m = PRINT_COMMENT.match(line)
            if m and not re.match(r"[a-z]+\b", m["expected"]):
                want = m["expected"]
                assert any(p.strip() == want for p in printed), (
                    f"{readme.name} block at line {first}: {line.strip()!r} did not print {want!r}; "
                    f"it printed:\n{out.getvalue()}"
                )


def docstrings(path):
    """Every docstring of a Python file or stub, as (name, text)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield getattr(node, "name", path.stem), doc


@pytest.mark.parametrize("source", ["__init__.py", "_npuzzle.pyi"])
def test_docstring_examples_hold(source):
    """The `>>>` examples of the package's docstrings and stubs (the stubs
    are what editors show) give what they say."""
    import doctest

    import npuzzle

    path = ROOT / "python" / "npuzzle" / source
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for name, doc in docstrings(path):
        globs = {"npuzzle": npuzzle, **{k: getattr(npuzzle, k) for k in npuzzle.__all__}}
        test = parser.get_doctest(doc, globs, f"{source}:{name}", str(path), 0)
        examples += len(test.examples)
        runner.run(test, out=lambda s: None)
    assert examples > 0
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"
