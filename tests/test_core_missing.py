"""Without the compiled C core, both entry points say so in one line that
names the README's rebuild command (its Set-up section), not a traceback."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.native._lib import REBUILD_COMMAND

ROOT = Path(__file__).resolve().parents[1]


def readme_rebuild_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    m = re.search(r"rebuild with `([^`]+)`", setup)
    assert m, "the README's Set-up section names no rebuild command"
    return m.group(1)


def test_the_error_names_the_readmes_rebuild_command():
    assert REBUILD_COMMAND == readme_rebuild_command()


@pytest.mark.parametrize("args", [["main.py", "--headless"], ["-m", "sandbox", "info"]])
def test_without_the_core_it_is_one_error_line(tmp_path, args):
    # a copy of the Python package without the built extension, run from its
    # folder (the cwd comes first on sys.path)
    shutil.copytree(ROOT / "sandbox", tmp_path / "sandbox",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    shutil.copy(ROOT / "main.py", tmp_path / "main.py")
    p = subprocess.run([sys.executable, *args], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1"})
    assert p.returncode == 1
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: the sandbox's C core is not built"), \
        p.stderr
    assert f"`{readme_rebuild_command()}`" in err[0]
    assert "Traceback" not in p.stderr
