"""The goofspiel table: the prize on offer, every player's hand (cards still
held bright, spent cards hollow, the search's root policy as a bar under each
card), and the bidding history with who won each prize.

  +--------------------------------------------------------------+
  |  [ 9 ]  prize 4 of 13    face down: 8 7 6 5 4 3 2 1          |
  |  Red   31 pts  [1][2][ ][4][5][ ][7] ... one card per value  |
  |  Blue  24 pts  [1][ ][3][4][ ][ ][7] ...  ▂ policy bars       |
  |  prize  13 12 11 10  9                                       |
  |  Red    13  1  12  2  ·      winner's bid filled in its colour |
  |  Blue    8 11  12  9  ·      a tie: the prize struck out       |
  +--------------------------------------------------------------+

Layout is computed once per (rect, view shape) by `_layout`, shared by draw()
and move_at() (a click on a held card of the person's hand plays it).

Hidden bids (imp_info = 1): with `ctx.seat` set, the board draws that seat's
view only. What is shown is decided once per (state, seat) in a `BoardModel`
built from info.seat_view (the one definition of a seat's information): the
seat's hand and bids, the prizes, each round's winner or tie and the points;
the other hand as card backs with their count, its bids as "?" (a won round
still filled in its colour). Drawing reads the model, never the hidden parts
of the view, and tests read the model to check what is shown.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...render import palette as pal
from ...render.fonts import elide, text
from ...render.grid import clipped
from .info import seat_view
from .view import GoofspielView


@dataclass(frozen=True)
class HandShown:
    agent: int
    points: int
    held: tuple[int, ...] | None    # card values in hand; None: face down
    spent: tuple[int, ...] | None   # cards bid already; None: not shown
    backs: int = 0                  # face-down cards drawn (their count is public)


@dataclass(frozen=True)
class RoundShown:
    prize: int
    winner: int                     # seat, -1 a tie
    bids: tuple[int | None, ...]    # per seat; None: hidden from the viewer


@dataclass(frozen=True)
class BoardModel:
    """What the board shows of a state to one viewer (seat None: everything)."""
    seat: int | None
    hands: tuple[HandShown, ...]
    rounds: tuple[RoundShown, ...]


def board_model(view: GoofspielView, seat: int | None) -> BoardModel:
    """The shown hands and rounds: all of them (seat None), or what `seat`
    may see, taken from its SeatView alone (no other seat's hand or bid
    reaches the model)."""
    if seat is None:
        hands = tuple(HandShown(a, view.points[a], view.hands[a],
                                tuple(v for v in range(1, view.num_cards + 1)
                                      if v not in view.hands[a]))
                      for a in range(view.players))
        rounds = tuple(RoundShown(r.prize, r.winner, r.bids) for r in view.history)
        return BoardModel(None, hands, rounds)
    sv = seat_view(view, seat)
    left = sv.num_cards - sv.turn          # every seat holds one card per prize to come
    hands = tuple(HandShown(a, sv.points[a], sv.hand, tuple(sorted(sv.bids))) if a == seat
                  else HandShown(a, sv.points[a], None, None, backs=left)
                  for a in range(view.players))
    rounds = tuple(RoundShown(p, w, tuple(b if a == seat else None
                                          for a in range(view.players)))
                   for p, w, b in zip(sv.prizes, sv.winners, sv.bids))
    return BoardModel(seat, hands, rounds)


@dataclass(frozen=True)
class _Layout:
    head: pygame.Rect                     # the prize band
    rows: tuple[pygame.Rect, ...]         # one hand row per player
    label_w: int                          # width of a row's name/points column
    card_w: int
    card_h: int
    history: pygame.Rect
    font: int                             # base font size


def _layout(rect: pygame.Rect, n_cards: int, players: int) -> _Layout:
    m = max(3, rect.w // 60)
    inner = rect.inflate(-2 * m, -2 * m)
    head_h = max(14, int(inner.h * 0.22))
    hands_h = max(12 * players, int(inner.h * 0.42))
    font = max(8, min(16, inner.h // 28, inner.w // 40))
    head = pygame.Rect(inner.x, inner.y, inner.w, head_h)
    row_h = hands_h // players
    label_w = min(max(40, 7 * font), inner.w // 3)
    card_w = max(3, (inner.w - label_w) // max(1, n_cards) - 2)
    card_h = max(6, min(int(card_w * 1.4), row_h - max(4, row_h // 5)))
    rows = tuple(pygame.Rect(inner.x, head.bottom + i * row_h, inner.w, row_h)
                 for i in range(players))
    hist_top = head.bottom + players * row_h + m
    history = pygame.Rect(inner.x, hist_top, inner.w, max(0, inner.bottom - hist_top))
    return _Layout(head, rows, label_w, card_w, card_h, history, font)


def _card_rect(lay: _Layout, row: pygame.Rect, value: int) -> pygame.Rect:
    x = row.x + lay.label_w + (value - 1) * (lay.card_w + 2)
    return pygame.Rect(x, row.y + (row.h - lay.card_h) // 2 - 2, lay.card_w, lay.card_h)


class GoofspielRenderer:
    def __init__(self, colors, names) -> None:
        self.colors = list(colors)
        self.names = list(names)
        # (view, seat) -> its BoardModel: built once per state and viewer,
        # not every frame
        self._model: tuple[GoofspielView, int | None, BoardModel] | None = None
        self.shown: BoardModel | None = None

    def model(self, view: GoofspielView, seat: int | None = None) -> BoardModel:
        """What draw() shows of `view` to `seat` (None: all cards), cached."""
        m = self._model
        if m is None or m[0] is not view or m[1] != seat:
            if seat is not None and not 0 <= seat < view.players:
                seat = None
            m = (view, seat, board_model(view, seat))
            self._model = m
        return m[2]

    def _color(self, agent: int) -> tuple[int, int, int]:
        return self.colors[agent % len(self.colors)] if self.colors else pal.agent_color(agent)

    def move_at(self, rect: pygame.Rect, view: GoofspielView, pos, agent: int) -> int | None:
        """A click on a card still in `agent`'s hand plays it."""
        if view.over or not 0 <= agent < view.players:
            return None
        lay = _layout(rect, view.num_cards, view.players)
        for v in view.hands[agent]:
            if _card_rect(lay, lay.rows[agent], v).collidepoint(pos):
                return v - 1
        return None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: GoofspielView,
             prev: GoofspielView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            surface.fill(pal.BG, rect)
            lay = _layout(rect, view.num_cards, view.players)
            fresh = prev is not None and prev.turn < view.turn and alpha < 1.0
            model = self.model(view, ctx.seat if ctx is not None else None)
            self.shown = model       # what the last frame showed (tests read it)
            self._draw_prize(surface, lay, view, model.seat)
            for hand in model.hands:
                self._draw_hand(surface, lay, view, hand, ctx)
            self._draw_history(surface, lay, view, model, alpha if fresh else 1.0)

    # ------------------------------------------------------------ parts
    def _name(self, a: int) -> str:
        return self.names[a] if a < len(self.names) else f"P{a}"

    def _draw_prize(self, surface, lay: _Layout, view: GoofspielView,
                    seat: int | None = None) -> None:
        r = lay.head
        cw = min(int(r.h * 0.72), r.w // 5)
        card = pygame.Rect(r.x, r.y, cw, r.h)
        f = lay.font
        if view.prize:
            pygame.draw.rect(surface, (245, 236, 210), card, border_radius=max(2, cw // 8))
            pygame.draw.rect(surface, (180, 150, 80), card, 2, border_radius=max(2, cw // 8))
            size = max(8, min(int(r.h * 0.55), cw))
            lab = text(str(view.prize), size, (40, 34, 24), bold=True)
            surface.blit(lab, lab.get_rect(center=card.center))
        else:
            pygame.draw.rect(surface, pal.GRID, card, 1, border_radius=max(2, cw // 8))
        x = card.right + max(4, f // 2)
        room = r.right - x
        if view.over:
            lines = [("all prizes awarded", pal.TEXT)]
        else:
            lines = [(f"prize {view.turn + 1} of {view.num_cards} · {view.points_order}",
                      pal.TEXT)]
            if seat is not None:
                lines.append((f"seat view ({self._name(seat)}): other bids hidden", pal.WARN))
            if view.unrevealed:
                down = " ".join(str(v) for v in (sorted(view.unrevealed, reverse=True)))
                what = "face down" if view.points_order == "random" else "to come"
                lines.append((f"{what}: {down}", pal.TEXT_DIM))
        lines.append((f"returns: {view.returns_type.replace('_', ' ')}", pal.TEXT_DIM))
        y = r.y
        for s, col in lines:
            if y + f > r.bottom + 2:
                break
            surface.blit(text(elide(s, f, room), f, col), (x, y))
            y += f + 4

    def _draw_hand(self, surface, lay: _Layout, view: GoofspielView, hand: HandShown,
                   ctx) -> None:
        a = hand.agent
        row = lay.rows[a]
        color = self._color(a)
        f = lay.font
        mine = ctx is not None and ctx.highlight_agent == a
        if mine:
            pygame.draw.rect(surface, pal.PANEL_HI, row, border_radius=4)
        pygame.draw.rect(surface, color, (row.x, row.y + 3, 4, row.h - 6))
        surface.blit(text(elide(self._name(a), f, lay.label_w - 10, bold=True), f, color,
                          bold=True), (row.x + 8, row.y + 2))
        if row.h >= 2 * f + 4:
            surface.blit(text(f"{hand.points} pts", f, pal.TEXT, mono=True),
                         (row.x + 8, row.y + f + 5))
        if hand.held is None:
            self._draw_backs(surface, lay, row, color, hand.backs)
            return
        held = set(hand.held)
        spent = set(hand.spent or ())
        policy = dict(ctx.policies.get(a, ())) if ctx is not None else {}
        chosen = ctx.chosen.get(a) if ctx is not None else None
        top = max(policy.values(), default=0.0)
        for v in range(1, view.num_cards + 1):
            cr = _card_rect(lay, row, v)
            if v in held:
                up = chosen == v - 1
                if up:
                    cr = cr.move(0, -max(2, lay.card_h // 6))
                pygame.draw.rect(surface, pal.lerp(color, (250, 250, 250), 0.55), cr,
                                 border_radius=max(1, lay.card_w // 6))
                pygame.draw.rect(surface, pal.TEXT if up else color, cr, 2 if up else 1,
                                 border_radius=max(1, lay.card_w // 6))
                fg = (30, 32, 40)
            elif v in spent:
                pygame.draw.rect(surface, pal.GRID, cr, 1, border_radius=max(1, lay.card_w // 6))
                fg = pal.TEXT_DIM
            else:
                continue
            size = max(7, min(f, int(lay.card_w * 0.75)))
            if lay.card_w >= 9:
                lab = text(str(v), size, fg, bold=v in held)
                if lab.get_width() <= lay.card_w + 2:
                    surface.blit(lab, lab.get_rect(center=cr.center))
            p = policy.get(v - 1)
            if p and v in held:   # the search's root policy, scaled to its top move
                h = max(1, int((row.bottom - cr.bottom - 2) * p / top)) if top > 0 else 0
                pygame.draw.rect(surface, color, (cr.x, cr.bottom + 1, cr.w, h))

    def _draw_backs(self, surface, lay: _Layout, row: pygame.Rect, color, count: int) -> None:
        """A hidden hand: `count` card backs (hatched, no value) and the count."""
        rad = max(1, lay.card_w // 6)
        for k in range(count):
            cr = _card_rect(lay, row, k + 1)
            pygame.draw.rect(surface, pal.lerp(color, pal.BG, 0.55), cr, border_radius=rad)
            pygame.draw.rect(surface, color, cr, 1, border_radius=rad)
            inner = cr.inflate(-max(2, cr.w // 3), -max(2, cr.h // 3))
            if inner.w > 2 and inner.h > 2:
                pygame.draw.rect(surface, pal.lerp(color, pal.BG, 0.25), inner, 1,
                                 border_radius=rad)
        f = max(7, lay.font - 1)
        x = _card_rect(lay, row, count + 1).x + 4 if count else row.x + lay.label_w
        lab = text(elide(f"{count} cards, hidden", f, max(0, row.right - x)), f, pal.TEXT_DIM)
        surface.blit(lab, (x, row.centery - f // 2))

    def _draw_history(self, surface, lay: _Layout, view: GoofspielView, model: BoardModel,
                      fade: float) -> None:
        r = lay.history
        f = max(7, lay.font - 1)
        if r.h < 2 * f or not model.rounds:
            if r.h >= f and not model.rounds:
                surface.blit(text("no bids yet", f, pal.TEXT_DIM), (r.x, r.y))
            return
        rows = view.players + 1
        cell_h = max(f + 2, min(r.h // rows, 2 * f + 4))
        cell_w = max(6, min((r.w - lay.label_w) // max(1, view.num_cards), 3 * f))
        surface.blit(text("prize", f, pal.TEXT_DIM), (r.x, r.y))
        for a in range(view.players):
            surface.blit(text(elide(self._name(a), f, lay.label_w - 6), f, self._color(a)),
                         (r.x, r.y + (a + 1) * cell_h))
        for k, rd in enumerate(model.rounds):
            x = r.x + lay.label_w + k * cell_w
            t = fade if k == len(model.rounds) - 1 else 1.0
            col = pal.lerp(pal.BG, pal.TEXT, t)
            lab = text(str(rd.prize), f, col, bold=True)
            surface.blit(lab, lab.get_rect(midtop=(x + cell_w // 2, r.y)))
            if rd.winner < 0:   # tied: the prize is discarded
                y = r.y + f // 2 + 1
                pygame.draw.line(surface, pal.lerp(pal.BG, pal.ERROR, t),
                                 (x + 2, y), (x + cell_w - 2, y), 2)
            for a, bid in enumerate(rd.bids):
                cell = pygame.Rect(x + 1, r.y + (a + 1) * cell_h, cell_w - 2, cell_h - 2)
                if a == rd.winner:   # public: who won the round
                    pygame.draw.rect(surface, pal.lerp(pal.BG, self._color(a), 0.8 * t), cell,
                                     border_radius=2)
                if bid is None:      # hidden from the viewer: no value, only the mark
                    lab = text("?", f, pal.lerp(pal.BG, pal.TEXT_DIM, t))
                else:
                    lab = text(str(bid), f, pal.lerp(pal.BG, pal.TEXT, t))
                if lab.get_width() <= cell.w + 2:
                    surface.blit(lab, lab.get_rect(center=cell.center))
