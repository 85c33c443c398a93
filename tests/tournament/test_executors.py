"""The same games through every executor give the same results: in this
process, a local process pool, and a Dask LocalCluster (when the [cluster]
extra is installed). Only settings go out and plain results come back."""
import json
import os
import pickle
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.config import load_scenario
from sandbox.tournament.agents import builtin_entrant
from sandbox.tournament.executors import InlineExecutor, make_executor
from sandbox.tournament.jobs import play_job
from sandbox.tournament.tournament import make_spec

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["goofspiel_13_duel", "--agents", "smitsimax", "greedy", "random", "--games", "2",
        "--iterations", "100", "--json"]


def results(path: Path) -> dict:
    rows = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    return {r["key"]: (r["entrants"], r["scores"], r["turns"], r["ranking"]) for r in rows}


def test_jobs_and_results_are_plain_data():
    spec = make_spec(load_scenario("goofspiel_13_duel"),
                     [builtin_entrant("greedy"), builtin_entrant("random")], games=2)
    job = spec.jobs()[0]
    assert pickle.loads(pickle.dumps(job)) == job
    row = play_job(job)
    # JSON-able: nothing but numbers, strings, lists
    assert json.loads(json.dumps(row)) == row


def test_local_pool_matches_in_process(tmp_path, capsys):
    assert main(["tournament", *ARGS, "--workers", "0", "--out", str(tmp_path / "a")]) == 0
    assert main(["tournament", *ARGS, "--workers", "2", "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    a, b = results(tmp_path / "a" / "results.jsonl"), results(tmp_path / "b" / "results.jsonl")
    assert len(a) == 6 and a == b
    pids = {json.loads(x)["pid"] for x in
            (tmp_path / "b" / "results.jsonl").read_text().splitlines()[1:]}
    assert os.getpid() not in pids                       # played in the workers


def test_workers_are_checked():
    from sandbox.native import InvalidArgument
    for bad in (-1, 1.5, True, 10_000):
        with pytest.raises(InvalidArgument):
            with make_executor(bad):
                pass
    with make_executor(0) as ex:
        assert isinstance(ex, InlineExecutor)


def test_dask_local_cluster_matches_in_process(tmp_path, capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    # the workers import this checkout's sandbox, as the test process does
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as cluster:
        code = main(["tournament", *ARGS, "--dask", cluster.scheduler_address,
                     "--out", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert main(["tournament", *ARGS, "--workers", "0", "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    assert results(tmp_path / "d" / "results.jsonl") == results(tmp_path / "a" / "results.jsonl")


def test_dask_unreachable_is_one_line(capsys, monkeypatch):
    pytest.importorskip("distributed")
    from sandbox.tournament import executors
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
    code = main(["tournament", *ARGS, "--dask", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code != 0 and err.startswith("error: --dask") and err.count("\n") == 1, err


def test_dask_without_the_extra_is_one_line(capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)     # as if not installed
    code = main(["tournament", *ARGS, "--dask", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code != 0 and "[cluster]" in err and err.count("\n") == 1, err
