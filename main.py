"""The sandbox's entry point: `python main.py [SCENARIO] [options]`.

Opens the desktop app on the scenario (default: snakes_standard_4p); with
--headless, or when no display is available, plays the match in the terminal
and ends with a `result: ...` line. `python main.py --help` lists options.
"""
import sys

if __name__ == "__main__":
    from sandbox.entry import run_entry
    sys.exit(run_entry("app_main"))
