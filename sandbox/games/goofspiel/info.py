"""What one seat may see of a goofspiel state with imp_info=1 (hidden bids).

The C state and its export keep everything (both hands, every bid); a seat's
view is derived here from the export, following OpenSpiel's imp_info
information state: the seat's own hand and its own bids, and the public
record -- the prizes played and the one on the table, who won each round
(or that the highest bids tied), and the points. The other seat's hand and
bids are not in it. Two states a seat cannot tell apart have equal views
(`info_key`), which is what the exact best response (sandbox.analysis.
imperfect) groups states by; the determinization in goofspiel.c samples
exactly the states with the seat's view.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .view import GoofspielView, decode_goofspiel


@dataclass(frozen=True)
class SeatView:
    seat: int
    num_cards: int
    turn: int
    prize: int                         # on the table now; 0 when the game is over
    hand: tuple[int, ...]              # the seat's own cards, ascending
    bids: tuple[int, ...]              # the seat's own bids, in play order
    prizes: tuple[int, ...]            # the prizes played, in play order (public)
    winners: tuple[int, ...]           # per round: the winning seat, -1 a tie (public)
    points: tuple[int, ...]            # both seats' points (public)

    def key(self) -> tuple:
        return (self.seat, self.turn, self.prize, self.hand, self.bids, self.prizes,
                self.winners, self.points)


def seat_view(view: GoofspielView, seat: int) -> SeatView:
    if not 0 <= seat < view.players:
        raise ValueError(f"seat {seat} out of range 0..{view.players - 1}")
    return SeatView(seat=seat, num_cards=view.num_cards, turn=view.turn, prize=view.prize,
                    hand=view.hands[seat], bids=tuple(r.bids[seat] for r in view.history),
                    prizes=tuple(r.prize for r in view.history),
                    winners=tuple(r.winner for r in view.history), points=view.points)


def info_key(words: Sequence[int], seat: int) -> tuple:
    """A hashable key, equal for two exports exactly when `seat` cannot tell
    the states apart under imp_info."""
    return seat_view(decode_goofspiel(words), seat).key()
