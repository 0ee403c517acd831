"""The package's types as `mypy --strict` reads them, the Python chapter's code among them:
the exceptions are the package's exports, `Arch` takes the spellings the calls take and no
other, `decode` and `iter_decode` give `Word`s (records too)."""

import subprocess
import sys
import typing

import pytest

from conftest import ROOT
from test_guide import blocks


def mypy(tmp_path, code: str):
    """`mypy --strict` of `code`, run outside the repository (the installed package's types)."""
    pytest.importorskip("mypy")
    src = tmp_path / "user.py"
    src.write_text(code, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), str(src)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


def test_exceptions_are_exports(tmp_path):
    run = mypy(
        tmp_path,
        "import warnings\n"
        "import dmaspec\n"
        "from dmaspec import DmaspecWarning, LowerError, UsageError, Word\n"
        "def f(raw: bytes) -> list[str]:\n"
        "    try:\n"
        "        dmaspec.encode(dmaspec.decode(raw))\n"
        "    except dmaspec.EncodeError as e:\n"
        "        return e.errors\n"
        "    except (dmaspec.InputError, UsageError, LowerError) as e:\n"
        "        return [str(e)]\n"
        "    except dmaspec.Error:\n"
        "        return []\n"
        "    warnings.simplefilter('error', DmaspecWarning)\n"
        "    w: Word = dmaspec.decode(raw)[0]\n"
        "    return [str(w['struct'])]\n",
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_decode_and_iter_decode_give_words(tmp_path):
    run = mypy(
        tmp_path,
        "import io\n"
        "import dmaspec\n"
        "def f(raw: bytes) -> bytes:\n"
        "    w: dmaspec.Word = next(dmaspec.iter_decode(io.BytesIO(raw)))\n"
        "    r: dmaspec.Word = dmaspec.decode(raw, struct='NOTIFICATION')[0]\n"
        "    s: dmaspec.Word = next(dmaspec.iter_decode(raw, struct='NOTIFICATION'))\n"
        "    return w.raw + r.raw + s.raw\n",
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_arch_spellings_type_check_as_they_run(dm, tmp_path):
    spellings = typing.get_args(dm.Arch)
    assert {s.lower() for s in spellings} == set(dm.ARCHS)
    assert set(spellings) == {f(a) for a in dm.ARCHS for f in (str.lower, str.capitalize, str.upper)}
    for s in spellings:  # each runs, as the architecture it names
        assert dm.decode(bytes(64), s)[0].arch == s.lower()
    for s in ("MaVeRiCk", "cAYMAN", " cayman"):  # the type refuses these, and so do the calls
        with pytest.raises(dm.UsageError, match="unknown architecture"):
            dm.decode(bytes(64), s)
    run = mypy(tmp_path, "import dmaspec\ndmaspec.decode(b'', 'Cayman')\ndmaspec.decode(b'', 'MaVeRiCk')\n")
    assert run.returncode == 1 and run.stdout.count("error:") == 1 and "MaVeRiCk" in run.stdout, run.stdout


def test_the_chapter_type_checks(tmp_path):
    """docs/guide/python.md's code blocks, in order, as one module a reader would write."""
    run = mypy(tmp_path, "\n".join(blocks()))
    assert run.returncode == 0, run.stdout + run.stderr
