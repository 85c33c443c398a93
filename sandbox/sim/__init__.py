"""sandbox.sim — headless play: World, Controllers, Match. Never imports pygame."""
from .controller import (Controller, ControllerSnapshot, HumanController, RandomController,
                         SearchController, SettingsChange, TreeRequest)
from .match import Match, StartState, make_controller
from .records import MatchResult, PlayerTurn, TurnRecord
from .world import World

__all__ = ["Controller", "ControllerSnapshot", "HumanController", "Match", "MatchResult",
           "PlayerTurn", "RandomController", "SearchController", "SettingsChange",
           "StartState", "TreeRequest", "TurnRecord", "World", "make_controller"]
