"""Where `python main.py` and `python -m sandbox` start: the signal handling
first, then the CLI (whose import loads the C core)."""
from __future__ import annotations

import sys


def run_entry(name: str) -> int:
    """Run sandbox.cli's entry point `name` (main.py: app_main, python -m
    sandbox: main). A C core that is not built is one error line and exit
    status 1, not a traceback: importing the CLI is what finds it missing."""
    from .signals import EXIT_INTERRUPTED, terminate_cleanly
    terminate_cleanly()           # before the slow imports: a signal there ends cleanly too
    try:
        from . import cli
        return getattr(cli, name)()
    except ImportError as exc:
        if type(exc).__name__ != "CoreNotBuilt":
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:     # Ctrl-C while the program is still loading
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
