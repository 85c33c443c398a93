"""sandbox.replay — recording matches to versioned JSON Lines files, reading
them back (tolerant of torn files), verifying them by re-simulation, and
analysing them (stats, CSV, charts). The format: sandbox/replay/format.py."""
from .errors import ReplayError
from .format import (FORMAT_NAME, FORMAT_VERSION, SUPPORTED_VERSIONS, HeaderLine, ResultLine,
                     TreeColumns, TurnLine, hash_hex)
from .reader import Dropped, Replay, read_replay
from .recorder import Recorder, RecorderStatus, recorder_for
from .stats import ReplayStats, compute_stats, to_csv
from .verify import VerifyReport, verify

__all__ = ["Dropped", "FORMAT_NAME", "FORMAT_VERSION", "HeaderLine", "Recorder",
           "RecorderStatus", "Replay", "ReplayError", "ReplayStats", "ResultLine",
           "SUPPORTED_VERSIONS", "TreeColumns", "TurnLine", "VerifyReport", "compute_stats",
           "hash_hex", "read_replay", "recorder_for", "to_csv", "verify"]
