import sys

from .entry import run_entry

sys.exit(run_entry("main"))
