import sys

from . import run_entry

sys.exit(run_entry("main"))
