"""`python -m sandbox bench --quick --markdown F`: the text report as usual, and a Markdown page
with the machine, the date, the command that regenerates the page and a row per figure the
report prints (its value, target and verdict)."""
from __future__ import annotations

import re

import pytest

from sandbox.bench.markdown import MarkdownPathError, check_writable
from sandbox.cli import main
from test_bench import SIGNATURE  # one figure, its history beside it in test_bench.py


def _figure_lines(text: str) -> list[tuple[str, str, str]]:
    """(label, value, rest) of each `  label.....value  mark` line of the text report."""
    out = []
    for line in text.splitlines():
        if len(line) < 56 or not line.startswith("  ") or line.lstrip().startswith("("):
            continue
        label, value, rest = line[2:40].strip(), line[40:56].strip(), line[56:]
        marked = not rest or rest.startswith(("  (quick)", "   target"))
        if label and value and line[39] == " " and marked:
            out.append((label, value, rest))
    return out


def test_bench_quick_markdown_page(tmp_path, capsys):
    page = tmp_path / "bench.md"
    assert main(["bench", "--quick", "--markdown", str(page)]) == 0
    text = capsys.readouterr().out
    md = page.read_text(encoding="utf-8")
    # the regenerate command, the machine and the date
    assert f"```\npython -m sandbox bench --quick --markdown {page}\n```" in md
    for name in ("CPU", "cores", "Python", "C core"):
        assert re.search(rf"^\| {name} \| \S", md, re.M), name
    assert re.search(r"^Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC", md, re.M)
    rows = re.findall(r"^\| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$", md, re.M)
    figures = [r for r in rows if r[0] != "figure"]
    # a row per figure printed, with the value printed
    printed = _figure_lines(text)
    assert len(printed) > 40
    for label, value, rest in printed:
        assert any(f == label.replace("|", "\\|") and v == value for f, v, _, _ in figures), \
            (label, value)
    sig = [r for r in figures if r[0].startswith("signature")]
    assert len(sig) == 1 and sig[0][1] == str(SIGNATURE)
    # a figure with a target: the target and, in a quick run, no verdict
    judged = [r for r in figures if r[2] != "—"]
    assert any(r[0] == "smitsimax simulated turns/s" and r[2] == ">= 3,000,000" for r in judged)
    assert judged and all(r[3] == "not judged (quick)" for r in judged)
    for label, value, rest in printed:
        if "target" in rest:
            assert any(f == label and t != "—" for f, _, t, _ in figures), label


def test_bench_markdown_refuses_an_unwritable_page_before_measuring(tmp_path, capsys):
    with pytest.raises(MarkdownPathError):
        check_writable(str(tmp_path))
    assert main(["bench", "--quick", "--markdown", str(tmp_path / "no" / "such.md")]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "error: --markdown" in captured.err and "does not exist" in captured.err
    assert main(["bench", "--parallel", "--markdown", str(tmp_path / "p.md")]) != 0
    assert "do not combine" in capsys.readouterr().err
