"""tools/smitsimax_mutants.py stays current with the C code: every mutant's old
text occurs exactly once in its file. A refactor that moves the text makes the
tool refuse to run, so this catches it in the ordinary suite (no rebuild)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools/smitsimax_mutants.py"
_spec = importlib.util.spec_from_file_location("smitsimax_mutants", TOOL)
mutants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutants)


@pytest.mark.parametrize("name", list(mutants.MUTANTS))
def test_old_text_occurs_once_in_its_file(name):
    what, old, new, path = mutants.spec(name)
    assert old != new, f"{name} changes nothing"
    n = path.read_text().count(old)
    assert n == 1, f"{name} ({what}): old text found {n} times in {path}; update the mutant"
