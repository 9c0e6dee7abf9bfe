"""The Python examples of the READMEs run as written, and print what their
comments say: a `print(...)` line ending in `# TEXT` must print the line
TEXT (the lines so marked, in order, among everything the block prints).
The blocks of one README run in order in one namespace, as a reader would
type them."""

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "python" / "README.md"]
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
            if m:
                want = m["expected"]
                assert any(p.strip() == want for p in printed), (
                    f"{readme.name} block at line {first}: {line.strip()!r} did not print {want!r}; "
                    f"it printed:\n{out.getvalue()}"
                )
