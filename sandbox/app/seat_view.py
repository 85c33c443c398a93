""""View as": which seat's information the arena and the replay show of a
hidden-information game (GamePlugin.hides_info, e.g. goofspiel's hidden
bids).

A spectator picks all cards or one seat (O, or the top bar's picker). While
a person plays a seat of such a game and the game is not over, the view is
locked on that seat: all cards are not offered, and everything that would
show another seat's hidden part is withheld -- its cards and bids on the
board (the game's renderer, BoardContext.seat), its search tree, root bars,
heat map and their tooltips, its planned line and policy on the board, and
the step-by-step view of its search (its root holds the move it chose). At
game over everything may be shown again. Exports, hashes and replay files
keep the full state: only what is drawn changes.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..games import BoardContext
from ..ui import Picker, WidgetGroup

LOCKED_NOTE = "all cards show at game over: you play a seat of a hidden-information game"


class SeatChoice:
    """The "view as" choice of one scene. `chosen`: the spectator's pick
    (None: all cards); `seat(person, over)`: the seat whose view is drawn now."""

    def __init__(self, hidden: bool, names: Sequence[str]) -> None:
        self.hidden = bool(hidden)     # GamePlugin.hides_info / Game.hidden_info
        self.names = list(names)
        self.chosen: int | None = None
        # the seat a person played in this match (the arena keeps the lock on
        # it after they hand it back, until the game is over)
        self.played: int | None = None

    @staticmethod
    def locked(person: int | None, over: bool) -> bool:
        """A person plays a seat and the game goes on: their seat's view only."""
        return person is not None and not over

    def seat(self, person: int | None = None, over: bool = False) -> int | None:
        if not self.hidden:
            return None
        return person if self.locked(person, over) else self.chosen

    def options(self, person: int | None = None, over: bool = False
                ) -> list[tuple[int | None, str]]:
        """The picker's entries: the person's seat alone while locked."""
        if self.locked(person, over):
            return [(person, f"view: {self._name(person)}")]
        return [(None, "view: all cards")] + [(s, f"view: {self._name(s)}")
                                              for s in range(len(self.names))]

    def choose(self, value: int | None, person: int | None = None, over: bool = False) -> str:
        """A pick from the picker (or O): refused while locked; the toast's line."""
        if self.locked(person, over):
            return LOCKED_NOTE if value != person else ""
        if value is not None and not 0 <= value < len(self.names):
            return ""
        self.chosen = value
        return "view: all cards" if value is None else f"view: {self._name(value)}'s cards only"

    def cycle(self, person: int | None = None, over: bool = False) -> str:
        """O: all cards -> seat 0 -> seat 1 -> ... -> all cards."""
        if not self.hidden:
            return "nothing is hidden in this game: every view is the same"
        if self.locked(person, over):
            return LOCKED_NOTE
        order = [None] + list(range(len(self.names)))
        nxt = order[(order.index(self.chosen) + 1) % len(order)] \
            if self.chosen in order else None
        return self.choose(nxt)

    def hidden_agents(self, person: int | None = None, over: bool = False) -> frozenset[int]:
        """The agents whose search and decisions are withheld now: every one
        but the viewing seat (none when all cards show)."""
        s = self.seat(person, over)
        if s is None:
            return frozenset()
        return frozenset(a for a in range(len(self.names)) if a != s)

    def add_picker(self, g: WidgetGroup, rect, person: int | None = None,
                   over: bool = False) -> None:
        """The top bar's "view as" picker (only for a game that hides information)."""
        if not self.hidden:
            return
        tip = ("whose cards the board shows: all (a spectator) or one seat's view (O)"
               + ("; locked on your seat until the game is over"
                  if self.locked(person, over) else ""))
        g.add(Picker("view_as", rect, "", self.options(person, over),
                     self.seat(person, over), tooltip=tip))

    def context(self, ctx: BoardContext, person: int | None = None,
                over: bool = False) -> BoardContext:
        """The board's context for the seat in view: the seat set, and the
        other seats' policies, picks and planned lines left out."""
        s = self.seat(person, over)
        if s is None:
            return ctx

        def mine(d):
            return {a: v for a, v in d.items() if a == s}
        return replace(ctx, seat=s, policies=mine(ctx.policies), chosen=mine(ctx.chosen),
                       plans=mine(ctx.plans), predicted=mine(ctx.predicted))

    def chart_stats(self, stats, labels: Sequence[str]):
        """A replay's ReplayStats for its charts: in a seat's view, without the
        other seats' root values and visit entropies (their searches' beliefs,
        drawn from their own hidden cards)."""
        hidden = {labels[a] for a in self.hidden_agents() if a < len(labels)}
        if not hidden:
            return stats
        return replace(stats, root_value={k: v for k, v in stats.root_value.items()
                                          if k not in hidden},
                       entropy={k: v for k, v in stats.entropy.items() if k not in hidden})

    def _name(self, s: int) -> str:
        return self.names[s] if 0 <= s < len(self.names) else f"seat {s}"
