"""What the board shows besides the game: the person's agent and pending pick, each
searching agent's root policy, and the searches' planned lines (L)."""
from __future__ import annotations



from ...games import BoardContext
from ...render.tree_layout import line_moves, principal_variation
from ...sim.controller import SearchController
from ...sim.world import divergence_note
from .constants import PLAN_TURNS


class BoardPlans:
    """ArenaScene's part: the board's context and plans, a mixin over the scene's state. It uses the
    scene's live, show_plans, _plans; it calls match."""

    def _board_context(self, human: int | None) -> BoardContext:
        """What the board may show beyond the state: the person's agent and
        its pending pick, and each agent's root policy as its search sees it."""
        policies = {}
        for c in self.match.controllers:
            snap = c.latest
            if snap is None or not isinstance(c, SearchController):
                continue
            for a in c.agents:   # the policy's probabilities (Exp3/RM: average strategy)
                policies[a] = tuple((s.move, s.policy) for s in snap.root_stats[a] if s.move >= 0)
        chosen = {a: m for a, m in self.live.human.items() if a in self.live.fresh_human}
        plans, predicted = self._board_plans()
        last = self.match.history[-1] if self.match.history else None
        return BoardContext(highlight_agent=human, policies=policies, chosen=chosen,
                            plans=plans, predicted=predicted, game=self.match.world.game,
                            note=divergence_note(last.divergence if last else None))

    def _board_plans(self) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
        """The principal variation of each graph (MCGS) or joint-action search:
        the most visited joint path from its root (tree_layout.principal_variation,
        following shared children too). `plans`: an agent's own search's line for
        it; `predicted`: another player's search's line for an agent that has no
        own one (a person, a Smitsimax player). A Smitsimax player's agents
        each get their own tree's best line (the most visited child down the
        tree). Only for the turn being decided; none while the plans are
        hidden (L)."""
        plans: dict[int, tuple[int, ...]] = {}
        predicted: dict[int, tuple[int, ...]] = {}
        if not self.show_plans:
            return plans, predicted
        for c in self.match.controllers:
            snap = c.latest
            if not isinstance(c, SearchController) or snap is None or not c.agents:
                continue
            if snap.turn != self.match.turn or snap.stop_reason == "eliminated":
                continue
            if snap.algorithm == "smitsimax":
                for a in c.agents:
                    line = self._own_line(c.player, a, snap.trees.get(a))
                    if line:
                        plans[a] = line
                continue
            if snap.algorithm not in ("mcgs", "joint"):
                continue
            tree = snap.trees.get(c.agents[0])
            if tree is None or len(tree) < 2 or tree.top_path:   # explorer's subtree: no plan
                continue
            cached = self._plans.get(c.player)
            if cached is None or cached[0] is not tree:
                rows = principal_variation(tree)[:PLAN_TURNS + 1]
                cached = (tree, tuple(tuple(line_moves(tree, rows, a))
                                      for a in range(self.match.world.num_agents)))
                self._plans[c.player] = cached
            for a, moves in enumerate(cached[1]):
                if a in c.agents:
                    plans[a] = moves
                else:
                    predicted.setdefault(a, moves)
        for a in plans:
            predicted.pop(a, None)
        return plans, predicted

    def _own_line(self, player: int, agent: int, tree) -> tuple[int, ...]:
        """An agent's moves down its own (decoupled) tree's most visited path,
        cached per tree snapshot."""
        if tree is None or len(tree) < 2 or tree.top_path:   # explorer's subtree: no plan
            return ()
        cached = self._plans.get((player, agent))
        if cached is None or cached[0] is not tree:
            rows = principal_variation(tree)[:PLAN_TURNS + 1]
            cached = (tree, tuple(m for m in line_moves(tree, rows, agent)))
            self._plans[(player, agent)] = cached
        return cached[1]
