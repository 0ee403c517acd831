"""What installing the package gives: every extra the docs install is declared in
pyproject.toml with what it needs, and `to_pandas` without pandas or NumPy says which extra
installs them."""

import re
import sys

import pytest

from conftest import ROOT

PYPROJECT = ROOT / "python" / "pyproject.toml"
DOCS = [ROOT / "docs" / "guide" / "python.md", ROOT / "python" / "README.md"]


def extras():
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    return {name: {re.split(r"[<>=!~; \[]", req, maxsplit=1)[0] for req in reqs} for name, reqs in declared.items()}


def test_every_extra_the_docs_install_is_declared():
    declared = extras()
    named = {x for doc in DOCS for group in re.findall(r"python\[([\w,-]+)\]", doc.read_text(encoding="utf-8")) for x in group.split(",")}
    assert "pandas" in named
    assert named <= set(declared), f"the docs install extras pyproject.toml lacks: {named - set(declared)}"
    assert declared["pandas"] >= {"numpy", "pandas"}  # to_pandas builds on both
    assert "numpy" in declared["numpy"]


@pytest.mark.parametrize("missing", ["numpy", "pandas"])
def test_to_pandas_without_it_names_the_extra(dm, monkeypatch, missing):
    cols = dm.columns(bytes(64), ["DMA_DIRECT2D.semaphore"], numpy=False)
    monkeypatch.setitem(sys.modules, missing, None)  # `import <missing>` raises ImportError
    with pytest.raises(ImportError, match=r"to_pandas needs NumPy and pandas .*pip install 'dmaspec\[pandas\]'"):
        cols.to_pandas()
