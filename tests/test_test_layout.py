"""The test tree itself: pytest (default "prepend" import mode) imports a
test file in a folder without ``__init__.py`` under its bare file name, so
two such files with one name stop the whole run at collection ("import file
mismatch"), on a clean checkout, before a single test runs."""
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _module_name(path: Path) -> str:
    # Inside a package, pytest imports the file by its dotted package path.
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def test_every_test_module_has_its_own_import_name():
    seen = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if path.name.startswith("test_") or path.name == "conftest.py":
            if path.name == "conftest.py":
                continue  # pytest imports conftest files by their path, one per folder
            seen[_module_name(path)].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not clashes, f"test files that would shadow each other: {clashes}"
