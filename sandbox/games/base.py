"""The game plugin contract: everything the Python side knows about one game.

The rules live in C (native/src/games/<name>.c). A plugin, in
sandbox/games/<name>/, is what the app, the replay tools, the CLI and the
bench need to *show* and *drive* that game without knowing which it is:

    kind          the C kind name (sbx_game_kind_name), also the scenario's `game`
    Params        the pydantic model of the scenario's [game_params]
    decode()      the flat C export -> an immutable view for renderers
    status()      is an agent still in the game, since when is it out, why
    facts()       a scoreboard row: a short summary, an optional bar
    key_move()    a person's key -> a move (or a reason it is not taken)
    default_move  what a person's agent does when no key was pressed (None: wait)
    renderer()    the board renderer (pygame, imported only when asked for)
    bench         the benchmark's cases for this game
    reference     its pure-Python twin where one exists

Nothing in this module imports pygame: sandbox.sim and the CLI use the
registry headless. Move names come from C (Game.move_name) so they are never
written twice; `move_names(game)` tabulates them once per match.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from ..textfile import TextFileProblem, read_small_text

if TYPE_CHECKING:  # pragma: no cover
    from ..native import Game

MAX_MOVES = 16       # SBX_MAX_MOVES: move ids are 0..15


class GameParams(BaseModel):
    """Base of every game's parameter model: unknown keys are errors, and a
    scenario's [game_params] table is validated by the game's subclass. The C
    core checks the same values again when the game is made (its ranges are
    the law; the contract tests keep the two in step)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Keys that name a layout file (looked up beside the scenario file first,
    # like an agent file), each with the generator keys it replaces: a
    # `--set` of the file drops them from the scenario (in a file, both
    # together are refused by the game's own validator).
    LAYOUT_FILES: ClassVar[dict[str, tuple[str, ...]]] = {}

    @classmethod
    def layout_replaces(cls, key: str, value: Any) -> tuple[str, ...]:
        """The generator keys a `--set` of `key` to `value` drops (a game
        whose key names a file only for some values says which)."""
        return cls.LAYOUT_FILES.get(key, ())

    def c_params(self, full: bool = False) -> str:
        """The C parameter string ("key=value ..."): the fields set explicitly
        (so C's own defaults stay the defaults), or every field with `full`."""
        from ..native.game import format_params
        return format_params(self.model_dump(exclude_unset=not full))


@dataclass(frozen=True)
class AgentStatus:
    alive: bool
    out_turn: int | None = None     # the first turn it is out (None while in)
    cause: str = ""                 # why it is out ("" if unknown or in)

    def out_text(self) -> str:
        if self.alive:
            return ""
        when = f"out since turn {self.out_turn}" if self.out_turn is not None else "out"
        return when + (f" ({self.cause})" if self.cause else "")


@dataclass(frozen=True)
class AgentFacts:
    """One scoreboard row of facts about an agent."""
    summary: str                        # e.g. "len 5", "31 pts"
    bar: float | None = None            # 0..1, drawn as a bar (None: no bar)
    bar_label: str = ""                 # drawn right of the bar, e.g. "84"
    detail: str = ""                    # a longer note drawn over the bar area
    gauge: bool = False                 # the bar is a level (health): coloured by it,
                                        # else progress, in the agent's colour


@dataclass(frozen=True)
class KeyResult:
    """What a person's key did: a move for their agent, or why not."""
    move: int | None = None
    refused: str = ""                   # shown to the person when move is None


@dataclass(frozen=True)
class BenchCase:
    """How `python -m sandbox bench` measures one game (see sandbox/bench/figures.py).

    match_*: a short self-play match (search, play, re-root): turns/s and
    iterations/s. first_move: iterations/s of the search from the start
    position at each budget. The figures that need a reference twin or a
    tree large enough to measure memory only run where they are given."""
    label: str
    game_params: Mapping[str, Any]
    search: Mapping[str, Any]
    match_turns: int = 10
    match_iterations: int = 30_000
    quick_turns: int = 4
    quick_iterations: int = 10_000
    first_move: tuple[int, ...] = ()
    first_move_target: float | None = None   # iterations/s the issue asks for
    primary: bool = False           # the headline figures (top-level JSON keys)
    rss_game_params: Mapping[str, Any] | None = None
    rss_search: Mapping[str, Any] | None = None
    reference: bool = False         # compare with the pure-Python reference
    # the bench's "mcgs" section (graph search): MCGS's search settings on this
    # case's game (algorithm=mcgs implied); None: the case has none
    mcgs: Mapping[str, Any] | None = None
    # the bench's "gtcfr" section (growing-tree CFR, two-player games): its
    # search settings on this case's game (algorithm=gtcfr implied; {} its
    # defaults); None: the case has none
    gtcfr: Mapping[str, Any] | None = None
    # engine speed in agent-turns (turns x agents: pods races count pod-turns)
    # held against this target, when given
    agent_turns_target: float | None = None
    # a bundled scenario to measure too: its first player's search settings
    # over a short self-play match, and the iterations of its turn budget
    scenario: str | None = None
    # `bench --explorer` (the tree explorer's frame times; primary case only): a game and search
    # whose first agent's tree grows past 1,000,000 nodes in a few seconds
    explorer_game_params: Mapping[str, Any] | None = None
    explorer_search: Mapping[str, Any] | None = None
    # `bench --net` (the network's pass): (label, game parameters) of the
    # games whose features a net of the default architecture reads
    net: tuple[tuple[str, Mapping[str, Any]], ...] = ()


@dataclass(frozen=True)
class WorldTurn:
    """One turn of a plugin's physics world (GamePlugin.physics_world): its
    new state (export words, imported into the C game), the step's per-agent
    rewards and per-agent divergence from the C model's prediction of the
    same turn (a distance in the game's units)."""
    words: list[int]
    rewards: tuple[float, ...]
    divergence: tuple[float, ...]


@dataclass(frozen=True)
class BoardContext:
    """What a board may show besides the state itself."""
    highlight_agent: int | None = None          # the agent a person plays
    # agent -> ((move, probability), ...): the search's current root policy
    policies: Mapping[int, Sequence[tuple[int, float]]] = field(default_factory=dict)
    # agent -> move a person has picked this turn (not yet played; a
    # sandbox.native.FreeMove where the game takes them: pods, a right click)
    chosen: Mapping[int, Any] = field(default_factory=dict)
    # agent -> its moves along its own search's principal variation (MCGS,
    # joint-action MCTS: the most visited joint path from the root), and for
    # an agent without one, its moves as another player's search predicts
    # them; a board may draw them as paths
    plans: Mapping[int, Sequence[int]] = field(default_factory=dict)
    predicted: Mapping[int, Sequence[int]] = field(default_factory=dict)
    # the live C game at the state drawn, for a board that looks ahead along
    # the plans (pods: clone it and step the lines); a board never steps it
    game: Any = None
    # a short line about the world itself, e.g. a pods race in the pymunk
    # world: how far the last turn moved the pods off the C model's prediction
    note: str = ""
    # a hidden-information game (GamePlugin.hides_info): the seat whose view
    # the board draws -- its own cards and the public record, the other
    # seats' hidden parts face down; None: everything (a spectator's "all
    # cards", a finished game). Boards of perfect-information games ignore it.
    seat: int | None = None


@dataclass(frozen=True)
class StartPosition:
    """A position from a file (GamePlugin.start_position): the game
    parameters it needs (they replace the scenario's matching keys), its
    state as export words, its turn, and lines worth telling the user."""
    game_params: Mapping[str, Any]
    words: tuple[int, ...]
    turn: int
    notes: tuple[str, ...] = ()


class GamePlugin:
    """Subclass once per game, in sandbox/games/<name>/__init__.py."""

    kind: ClassVar[str]
    title: ClassVar[str]                # one line for menus and `info`
    Params: ClassVar[type[GameParams]]
    keys_hint: ClassVar[str] = ""       # how a person plays, e.g. "arrow keys steer"
    # key names (pygame.key.name) the plugin answers; the contract test tries each
    keys: ClassVar[tuple[str, ...]] = ()
    bench: ClassVar[tuple[BenchCase, ...]] = ()
    # the bench's "modes" rows: (label, game_params) of the game's variants,
    # the first the yardstick the others' speed is held against (snakes:
    # each official ruleset and a few maps against standard)
    bench_modes: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = ()
    bench_mode_search: ClassVar[Mapping[str, Any]] = {}
    # parameter sets the shared contract tests play (tests/games/test_contract.py):
    # small ones first; every one must end within its own turn limit
    examples: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    # exact exploitability (sandbox.analysis, `python -m sandbox exploit`):
    # whether the game can be analysed at all, and whether as the one-shot
    # game at its initial state (a matrix game's first round) rather than by
    # enumerating its whole tree
    exploitable: ClassVar[bool] = False
    exploit_one_shot: ClassVar[bool] = False
    # `series` statistics: names of the shares of turns turn_shares() counts
    # (empty: none, and series does not decode the states at all)
    turn_stats: ClassVar[tuple[str, ...]] = ()
    # worlds other than the C model a scenario may choose (`physics = NAME`;
    # "csb", the default, is the C model itself): physics_world() builds them
    worlds: ClassVar[tuple[str, ...]] = ()
    # protocols of its own a process player may speak (`protocol = NAME`,
    # docs/bots.md) besides the generic "jsonl": name -> a
    # sandbox.bots.protocol.Protocol subclass, made with no arguments
    bot_protocols: ClassVar[dict[str, type]] = {}

    # -- state ---------------------------------------------------------------
    def decode(self, words: Sequence[int]) -> Any:
        raise NotImplementedError

    def num_agents(self, view: Any) -> int:
        raise NotImplementedError

    def status(self, view: Any, agent: int) -> AgentStatus:
        return AgentStatus(True)

    def facts(self, view: Any, agent: int) -> AgentFacts:
        raise NotImplementedError

    def summary(self, view: Any) -> dict[str, Any]:
        """A JSON-able digest of a view for outside drivers (the app's
        --state-file, tests)."""
        return {"turn": int(view.turn)}

    def bot_view(self, view: Any) -> dict[str, Any]:
        """The state as a process player's JSON-lines `turn` message shows
        it (docs/bots.md documents each game's): plain JSON values only,
        built from the decoded view. A game overrides it with its own
        documented schema; this default writes the view's fields."""
        return plain(view)

    def private_label(self, state_id: int) -> str:
        """A short label for one of the game's private states (the ids a
        public-state search's ranges are over: Search.ranges)."""
        return str(state_id)

    def public_event(self, view: Any, names: Sequence[str]) -> str:
        """What became public on the way into a public state (the view of
        one of its states: read only its public part), in a few words: the
        belief view's label for a node below the root."""
        return f"after turn {view.turn}"

    #: Whether seat_bot_view shows a process player only what its own seats
    #: may see; process players may play a game whose hides_info is true only
    #: then (the scenario refuses them otherwise).
    seat_bot_views: bool = False

    def seat_bot_view(self, view: Any, seats: Sequence[int]) -> dict[str, Any]:
        """The `turn` message's state for a process player that plays `seats`
        in a game whose hides_info is true: what those seats may see. A game
        that can hide information overrides this and sets seat_bot_views; the
        default is the whole state (bot_view)."""
        return self.bot_view(view)

    def physics_world(self, physics: str, view: Any) -> Any:
        """A world of one of `worlds`, starting at `view`: an object whose
        advance(start_view, predicted_view) plays one turn and returns a
        WorldTurn (sandbox.sim.world), given the state before the turn and
        the C model's step of the same joint action."""
        raise NotImplementedError(f"{self.kind} has no world '{physics}'")

    # -- a person playing ------------------------------------------------------
    def key_move(self, view: Any, agent: int, key: str, char: str = "") -> KeyResult | None:
        """`key`: pygame.key.name of the key, `char`: its text. None: this key
        means nothing to the game (the app may use it for something else)."""
        return None

    def default_move(self, view: Any, agent: int) -> int | None:
        """The move of a person's agent who pressed nothing this turn; None:
        the match waits for a key."""
        return None

    # -- outside programs: a player that is a remote program, a served agent ---------
    # controller names a scenario player may take besides the built-in ones
    # (snakes: "battlesnake", a user's snake server at `url`)
    controllers: ClassVar[tuple[str, ...]] = ()
    # what `python -m sandbox serve NAME` serves an agent as (snakes: "battlesnake")
    servers: ClassVar[tuple[str, ...]] = ()

    def make_controller(self, name: str, player: int, agents: Sequence[int], label: str,
                        config: Mapping[str, Any], game_params: Mapping[str, Any],
                        match_id: str, names: Sequence[str]) -> Any:
        """A Controller (sandbox.sim.controller) of one of `controllers`;
        `config`: the player's keys (url, timeout_ms ...); `match_id`: the
        same for every player of the match (a Battlesnake game id)."""
        raise NotImplementedError(f"{self.kind} has no controller '{name}'")

    # in-process players of the game's own (goofspiel: "equilibrium", an exact
    # equilibrium; "openspiel", OpenSpiel's MCTS bot): outside yardsticks a
    # scenario names as its controller
    policies: ClassVar[tuple[str, ...]] = ()

    def policy_problem(self, name: str, game_params: Mapping[str, Any]) -> str | None:
        """Why the player `name` cannot play these parameters (None: it can)."""
        return f"the game '{self.kind}' has no {name} players"

    def make_policy(self, name: str, game_params: Mapping[str, Any], seed: int) -> Any:
        """One of `policies`: an object whose decide(game, agents, budget)
        returns a move (or None) per agent, from the real state (read only)."""
        raise NotImplementedError(f"{self.kind} has no player '{name}'")

    def outside_rates(self, quick: bool) -> dict[str, Any] | None:
        """`bench`: the iterations a second of this game's searches against an
        outside implementation's on the same positions (goofspiel: OpenSpiel's
        C++ MCTS), or None (no outside engine, or it is not installed)."""
        return None

    def make_server(self, name: str, agent_name: str, player: Mapping[str, Any], host: str,
                    port: int, options: Mapping[str, Any]) -> Any:
        """A server of one of `servers` playing the agent whose keys are
        `player` (controller, search, budget, weights), bound to host:port
        (OSError when it cannot be), not yet serving: serve_forever(),
        shutdown(), server_close()."""
        raise NotImplementedError(f"{self.kind} has no server '{name}'")

    def start_position(self, path: "str | os.PathLike") -> Any:
        """A position read from a file (StartPosition: game_params, words,
        origin notes), to start a match or an analysis from; InvalidArgument
        in one line for a bad file. Games without such files refuse."""
        from ..native import InvalidArgument
        raise InvalidArgument(f"{self.kind} reads no start positions")

    # -- drawing (pygame) ------------------------------------------------------
    def renderer(self, colors: Sequence[tuple[int, int, int]], names: Sequence[str],
                 move_names: Sequence[Sequence[str]] | None = None):
        """The board renderer: draw(surface, rect, view, prev, alpha, ctx) and
        move_at(rect, view, pos, agent) -> a move for a click, or None. A
        game that hides_info draws only ctx.seat's view when it is set.
        `move_names`: names[agent][move] from C (move_names(game))."""
        raise NotImplementedError

    # -- pure-Python twin --------------------------------------------------------
    def reference_game(self, params: Mapping[str, Any] | str | None, seed: int):
        """A reference game object (the interface sandbox.reference.smitsimax
        drives), or None if this game has no reference."""
        return None

    # -- exact exploitability --------------------------------------------------------
    def exploit_refusal(self, game_params: Mapping[str, Any] | None) -> str:
        """Why these parameters cannot be analysed exactly (too many states,
        not two seats), or "" when they can. Asked only if `exploitable`."""
        return ""

    def hides_info(self, game_params: Mapping[str, Any] | None) -> bool:
        """Whether a game of these parameters keeps something from some seat
        (goofspiel's imp_info: the opponent's hand and bids). The app then
        offers "view as" a seat (BoardContext.seat) and, while a person plays
        a seat, shows only that seat's view until the game is over. Perfect
        information (the default): False."""
        return False

    def info_key(self, game: "Game", seat: int) -> Any:
        """On a hidden-information game (Game.hidden_info), a hashable key
        equal for two states exactly when `seat` cannot tell them apart (its
        information set); the exact best response over information states
        groups by it. Perfect information: the state itself."""
        return game.state_hash()

    def chance_outcomes(self, game: "Game") -> list[tuple[float, "Game"]]:
        """The states this one could have been, had the chance event the
        game has just drawn (at its creation or its last step) come out each
        possible way, with their probabilities. A game without chance: the
        state itself."""
        return [(1.0, game)]

    # -- series statistics ----------------------------------------------------------
    def turn_shares(self, views: Sequence[Any]) -> dict[str, list[tuple[int, int]]]:
        """Game-specific shares of turns over one match, for `series`: per
        name of turn_stats, per agent, (turns it held, turns it applied to),
        from the match's states (one view after each turn)."""
        return {}

    # -- parameters ----------------------------------------------------------------
    def params(self, game_params: Mapping[str, Any] | None) -> GameParams:
        return self.Params.model_validate(dict(game_params or {}))

    def c_params(self, game_params: Mapping[str, Any] | None) -> str:
        return self.params(game_params).c_params()

    def weight_names(self, game_params: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The game's evaluation weights: its parameters named w_* (a player
        may set its own, players.N.weights; the arena has sliders for them).
        With `game_params`, only those that game uses (a ruleset may have
        weights of its own)."""
        return tuple(n for n in self.Params.model_fields if n.startswith("w_"))

    def weight_value(self, game_params: Mapping[str, Any] | None, name: str) -> float:
        """The weight `name` as a game of `game_params` uses it (a field left
        unset means the game's own default, which C knows: override)."""
        v = getattr(self.params(game_params), name)
        if v is None:
            v = self.Params.model_fields[name].default
        return float(v) if v is not None else 0.0


def plain(value: Any) -> Any:
    """A decoded view as JSON values: dataclasses as objects of their
    fields, tuples and lists as lists, sets as sorted lists."""
    import dataclasses
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [plain(v) for v in sorted(value)]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "item"):          # a numpy scalar
        return value.item()
    return value


MAX_LAYOUT_BYTES = 1 << 20   # a 64 x 64 maze is about 13 KB


def read_layout_file(path: "str | os.PathLike", error: type[Exception], what: str) -> str:
    """A hand-made layout file's text (maze files, SnakeByte maps); a file
    that cannot be read raises `error` in one line naming it and `what`."""
    p = Path(path)
    try:
        return read_small_text(p, MAX_LAYOUT_BYTES)
    except TextFileProblem as e:
        raise error(f"{p}: cannot be a {what}: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{p}: cannot read the {what} ({e.__class__.__name__}: "
                    f"{getattr(e, 'strerror', None) or e})") from None


def move_names(game: "Game") -> list[list[str]]:
    """names[agent][move] for every move id, read once from C."""
    return [[game.move_name(a, m) for m in range(MAX_MOVES)] for a in range(game.num_agents)]


def move_namer(names: Sequence[Sequence[str]], agent: int) -> Callable[[int], str]:
    """A move -> name function for one agent (tree views, root bars); -1 and
    255 are pass nodes."""
    row = names[agent] if 0 <= agent < len(names) else ()

    def name(move: int) -> str:
        if move < 0 or move == 255:
            return "pass"
        return row[move] if move < len(row) and row[move] != "?" else str(move)
    return name
