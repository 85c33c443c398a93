"""`python -m sandbox serve NAME [AGENT]`: a sandbox agent served to the
outside through a protocol adapter (sandbox.bots.adapters.SERVERS;
"battlesnake": a Battlesnake snake server, docs/battlesnake.md).

AGENT is what `tournament` takes (a built-in name or an agent file
agents/*.toml) or SCENARIO:N, player N of a scenario (its controller,
search settings, budget and weights). Bad flags, an unknown agent and an
address that cannot be bound end in one line and a non-zero exit."""
from __future__ import annotations

import argparse
import os
from typing import Any

from .native import SandboxError
from .run import EXIT_ERROR, CliError


def add_serve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("server", metavar="NAME",
                   help="what to serve as (battlesnake: a snake server for the official "
                        "Battlesnake engine or CLI)")
    p.add_argument("agent", nargs="?", default="smitsimax", metavar="AGENT",
                   help="a built-in agent (smitsimax, suct, mcgs, random ...), an agent file "
                        "(*.toml) or SCENARIO:N (player N of a scenario); default smitsimax")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free one)")
    p.add_argument("--margin-ms", type=float, default=None, metavar="MS",
                   help="answer this long before the request's timeout (default 100)")
    p.add_argument("--max-timeout-ms", type=float, default=None, metavar="MS",
                   help="a request's game.timeout is taken up to this (default 1000)")
    p.add_argument("--search-slots", type=int, default=None, metavar="N",
                   help="searches at once; a request that cannot start one in time gets a "
                        "safe move (default: one per core)")
    p.add_argument("--max-games", type=int, default=None, metavar="N",
                   help="games at once; more are refused (default 4)")
    p.add_argument("--max-connections", type=int, default=None, metavar="N",
                   help="connections at once; more are answered 503 (default 128)")
    p.add_argument("--max-recordings-per-minute", type=int, default=None, metavar="N",
                   help="games recorded a minute at most; more are played, not recorded "
                        "(default 10)")
    p.add_argument("--max-recordings", type=int, default=None, metavar="N",
                   help="games recorded in all while the server runs (default 1000)")
    p.add_argument("--replay-dir", default=None, metavar="DIR",
                   help="record each served game here (default $SBX_REPLAY_DIR, else replays/)")
    p.add_argument("--no-record", action="store_true", help="do not record served games")


def resolve_player(ref: str) -> tuple[str, dict[str, Any]]:
    """(name, player keys) of AGENT; ScenarioError (one line) for a bad one."""
    from .config import ScenarioError, load_scenario
    from .tournament.agents import BUILTIN, load_entrant
    head, sep, tail = ref.rpartition(":")
    if sep and tail.isdigit() and head and not ref.endswith(".toml"):
        scenario = load_scenario(head)
        i = int(tail)
        if not 0 <= i < len(scenario.players):
            raise ScenarioError(f"agent {ref}: the scenario has players 0.."
                                f"{len(scenario.players) - 1}")
        p = scenario.players[i]
        keys = p.model_dump(include={"controller", "search", "weights"}, exclude_none=True)
        keys["budget"] = scenario.player_budget(i).model_dump()
        return p.name or f"{head} player {i}", keys
    if ref not in BUILTIN and not ref.endswith(".toml"):
        raise ScenarioError(f"agent {ref!r}: not a built-in agent ({', '.join(BUILTIN)}), an "
                            "agent file (*.toml) nor SCENARIO:N")
    e = load_entrant(ref)
    return e.name, dict(e.player)


def make_server(name: str, agent_name: str, player: dict[str, Any], host: str, port: int,
                options: dict[str, Any]):
    """The server `name` (one of SERVERS) playing the agent whose keys are
    `player`, bound to host:port (OSError when it cannot be), not yet
    serving."""
    # the one server today: the Battlesnake API (sandbox/bots/battlesnake/)
    from .bots.battlesnake.agent import ServedAgent
    from .bots.battlesnake.server import ServerSettings, make_server as battlesnake_server
    if name != "battlesnake":
        raise CliError(f"serve: no server {name!r}")
    return battlesnake_server(ServedAgent.from_player(agent_name, player), host, port,
                              ServerSettings(**options))


def run_serve(args: argparse.Namespace) -> int:
    from .bots.adapters import SERVERS
    if args.server not in SERVERS:
        raise CliError(f"serve: unknown server {args.server!r} (known: "
                       f"{', '.join(SERVERS) or 'none'})")
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port: {args.port}, expected 0..65535")
    name, player = resolve_player(args.agent)
    options: dict[str, Any] = {}
    for key in ("margin_ms", "max_timeout_ms", "search_slots", "max_games", "max_connections",
                "max_recordings_per_minute", "max_recordings"):
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    folder = args.replay_dir or os.environ.get("SBX_REPLAY_DIR") or "replays"
    options["replay_dir"] = None if args.no_record else folder
    try:
        server = make_server(args.server, name, player, args.host, args.port, options)
    except OSError as exc:
        raise CliError(f"serve: cannot listen on {args.host}:{args.port}: "
                       f"{exc.strerror or exc}") from None
    host, port = server.server_address[:2]
    rec = "not recorded" if args.no_record else f"recorded in {folder}/"
    print(f"serving {name} as a {args.server} on http://{host}:{port} (games {rec}; "
          "Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    finally:
        # Ctrl-C (exit 130) and SIGTERM (143) end here too: the recordings
        # are closed with the turns received; a search in flight is dropped
        server.server_close()
    return 0


__all__ = ["EXIT_ERROR", "SandboxError", "add_serve_args", "resolve_player", "run_serve"]
