"""Tournaments, parameter sweeps and their Executor runner.

agents      entrants: agent files or built-in names, seated into a scenario
jobs        one game as plain data in and out (what crosses to a worker)
executors   local process pool, in-process, or a Dask cluster's executor
runner      jobs on an executor, each result appended to the log
log         the resumable results log (JSON lines, fsynced per game)
ratings     Bradley–Terry ratings with Fisher-information intervals; SPRT
tournament  round robin: schedule, standings, summary
sweep       grid / random search of search settings against a pool
chart       ratings chart and sweep heat map as PNG (pygame, no display)
commands    the CLI commands
"""
