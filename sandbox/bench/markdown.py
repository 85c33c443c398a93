"""`python -m sandbox bench --markdown FILE`: the bench's figures as a Markdown page.

The page says where and when the figures were measured (CPU model, cores, Python and core
versions, the date), the command that measures them again and rewrites the page, and has a
table per section of the text report: each figure the report prints, its value, its target
where it has one, and whether the target was met ("met" / "not met"; "not judged (quick)"
for a --quick run, whose shorter budgets are not comparable with the targets).
"""
from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..native.errors import SandboxError


class MarkdownPathError(SandboxError):
    """The page cannot be written where asked (checked before measuring)."""


@dataclass
class Rows:
    """The figures of one report, in the order printed, grouped by section."""
    sections: list[tuple[str, list[tuple[str, str, str, str]]]] = field(default_factory=list)

    def section(self, title: str) -> None:
        self.sections.append((title, []))

    def add(self, figure: str, value: str, target: str = "", verdict: str = "") -> None:
        if not self.sections:
            self.section("figures")
        self.sections[-1][1].append((figure, value, target, verdict))

    def __iter__(self):
        for title, rows in self.sections:
            for row in rows:
                yield title, row


def check_writable(path: str) -> None:
    """Refuse a page that could not be written, before the bench runs for minutes."""
    p = Path(path)
    if p.is_dir():
        raise MarkdownPathError(f"--markdown {path}: is a directory, not a file")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise MarkdownPathError(f"--markdown {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise MarkdownPathError(f"--markdown {path}: not writable")


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo; else what platform knows)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "Processor") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> list[tuple[str, str]]:
    from ..native import core_version, cores, simd_paths
    return [("CPU", cpu_model()),
            ("cores", f"{os.cpu_count() or '?'} online ({cores()} usable by a search)"),
            ("system", f"{platform.system()} {platform.release()} ({platform.machine()})"),
            ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
            ("C core", f"{core_version()}; {simd_paths()}")]


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ") or " "


def page(res: dict[str, Any], rows: Rows, command: str, quick: bool,
         when: datetime | None = None) -> str:
    when = when or datetime.now(timezone.utc)
    out = ["# sandbox bench", ""]
    if quick:
        out += ["A **quick** run: smaller budgets and shorter timings, not comparable with a "
                "full run; no target is judged.", ""]
    out += [f"Measured {when.strftime('%Y-%m-%d %H:%M UTC')} in {res.get('bench_seconds', '?')} s.",
            "", "Regenerate this page with:", "", "```", command, "```", "",
            "## Machine", "", "| | |", "|---|---|"]
    out += [f"| {name} | {_cell(value)} |" for name, value in machine()]
    for title, figures in rows.sections:
        if not figures:
            continue
        out += ["", f"## {_cell(title)}", "", "| figure | value | target | verdict |",
                "|---|--:|---|---|"]
        out += [f"| {_cell(f)} | {_cell(v)} | {_cell(t or '—')} | {_cell(j or '—')} |"
                for f, v, t, j in figures]
    return "\n".join(out) + "\n"


def write_page(path: str, res: dict[str, Any], rows: Rows, command: str, quick: bool) -> None:
    """Write the page whole: a temporary file beside it, renamed into place."""
    text = page(res, rows, command, quick)
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        raise MarkdownPathError(f"--markdown {path}: cannot write: "
                                f"{exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
