"""The Python chapter of the book (docs/guide/python.md): its ```python blocks run, in
order, in one namespace, from the repository's root, as a reader would paste them; and
the calls its table lists are the package's."""

import inspect
import os
import re

import pytest

from conftest import ROOT

GUIDE = ROOT / "docs" / "guide" / "python.md"


def blocks():
    return re.findall(r"^```python\n(.*?)^```$", GUIDE.read_text(encoding="utf-8"), re.M | re.S)


def test_the_chapter_has_examples():
    assert len(blocks()) >= 6


def test_the_code_blocks_run(dm, capsys):
    pytest.importorskip("numpy")
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        scope: dict = {}
        for i, code in enumerate(blocks()):
            exec(compile(code, f"{GUIDE}:block {i}", "exec"), scope)
    finally:
        os.chdir(here)
    assert "<dmaspec.Word #0 at 0x0 cayman: PSEUDO_DMA_DIRECT2D" in capsys.readouterr().out


def test_the_table_names_every_call_with_its_parameters(dm):
    text = GUIDE.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)\(([^)]*)\)` \|", text, re.M))
    public = {n for n in dm.__all__ if callable(getattr(dm, n)) and n[0].islower()}
    assert set(rows) == public
    for name, args in rows.items():
        written = [a.split("=")[0].strip() for a in args.split(",") if a.strip() not in ("", "*")]
        actual = list(inspect.signature(getattr(dm, name)).parameters)
        assert written == actual, f"{name}: the table says {written}, the function takes {actual}"
