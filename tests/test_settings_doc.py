"""`info --settings` and docs/settings.md: every search setting, generated
from the core's table, with "read by" checked against the C sources."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.native import SearchParams
from sandbox.settings.doc import USED_BY, settings_markdown, settings_rows

ROOT = Path(__file__).resolve().parents[1]
SEARCH = ROOT / "native" / "src" / "search"
# each algorithm's files (Smitsimax and MCGS are families; the CFR kernel is read by both
# CFR searches)
FILES = {"smitsimax": ["smitsimax*.[ch]"], "suct": ["suct.c"], "joint": ["joint.c"],
         "random": ["random.c"], "greedy": ["greedy.c"], "mcgs": ["mcgs*.c"], "uct": ["uct.c"],
         "gtcfr": ["gtcfr.c", "cfr_kernel.h"], "pubcfr": ["pubcfr.c", "cfr_kernel.h"]}


def test_every_setting_has_a_row_and_a_reader():
    rows = settings_rows()
    assert [r["name"] for r in rows] and set(r["name"] for r in rows) == set(SearchParams.model_fields)
    assert set(USED_BY) == set(SearchParams.model_fields)
    for r in rows:
        assert r["used_by"] and r["meaning"] and r["values"], r


@pytest.mark.skipif(not SEARCH.is_dir(), reason="C sources not in this install")
def test_read_by_covers_every_read_in_the_c_sources():
    """A setting an algorithm's C file reads (p->NAME, s->p.NAME) is listed
    as read by it: a new read without a new entry fails here."""
    missing = []
    for algo, patterns in FILES.items():
        paths = [p for pattern in patterns for p in sorted(SEARCH.glob(pattern))]
        assert paths, (algo, patterns)
        src = "\n".join(p.read_text() for p in paths)
        for field in SearchParams.model_fields:
            if re.search(r"(p->|p\.)" + field + r"\b", src) and algo not in USED_BY[field]:
                missing.append((field, algo))
    assert not missing


def test_docs_page_is_the_generated_one():
    page = ROOT / "docs" / "settings.md"
    assert page.read_text() == settings_markdown(), (
        "docs/settings.md is stale: python -m sandbox info --settings --markdown > docs/settings.md")


def test_cli(capsys):
    assert main(["info", "--settings"]) == 0
    out = capsys.readouterr().out
    for field in SearchParams.model_fields:
        assert f"\n  {field}  (" in out
    assert main(["info", "--markdown"]) != 0


def test_temperature_is_read_only_when_the_final_move_is_sampled():
    """MCGS and the CFR searches read `temperature` only to shape a sampled
    final move (mcgs's and cfr_kernel.h's final-move draw); with an argmax
    move a change of it does nothing, and a re-search must say so rather than
    let a different move look like its doing."""
    from sandbox.settings.doc import setting_is_read
    for algo in ("mcgs", "gtcfr", "pubcfr", "smitsimax"):
        sampled = SearchParams(algorithm=algo, final_move="sample")
        assert setting_is_read(sampled, "temperature"), algo
        assert not setting_is_read(sampled.replace(final_move="argmax"), "temperature"), algo
    # Smitsimax draws from its visit shares (UCB) or average strategy (Exp3 / RM)
    assert setting_is_read(SearchParams(policy="rm", final_move="sample"), "temperature")
    assert not setting_is_read(SearchParams(algorithm="suct", final_move="sample"),
                               "temperature")
