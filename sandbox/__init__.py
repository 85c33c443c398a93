"""The simultaneous-move search sandbox."""
import os as _os

# numpy's OpenBLAS starts worker threads that spin-wait; the sandbox does no
# linear algebra and its search threads need the cores. Set before any numpy
# import (users can still override it in the environment).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"


def run_entry(name: str) -> int:
    """Run sandbox.cli's entry point `name` (main.py: app_main, python -m
    sandbox: main). A C core that is not built is one error line and exit
    status 1, not a traceback: importing the CLI is what finds it missing."""
    import sys
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
