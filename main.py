"""The sandbox's entry point: `python main.py [SCENARIO] [options]`.

Opens the desktop app on the scenario (default: snakes_standard_4p); with
--headless, or when no display is available, plays the match in the terminal
and ends with a `result: ...` line. `python main.py --help` lists options.
"""
import sys

if __name__ == "__main__":
    try:
        from sandbox.cli import app_main
    except ImportError as exc:
        if type(exc).__name__ != "CoreNotBuilt":   # the C core is missing: one line
            raise
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
    sys.exit(app_main())
