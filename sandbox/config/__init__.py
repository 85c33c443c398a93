"""Validated configuration: scenario files (TOML) and their pydantic models."""
from .scenario import (Budget, budget_from_flags, PlayerConfig, RecordConfig, Scenario, ScenarioError, find_scenario,
                       list_scenarios, load_scenario, scenario_from_dict)

__all__ = ["Budget", "budget_from_flags", "PlayerConfig", "RecordConfig", "Scenario", "ScenarioError", "find_scenario",
           "list_scenarios", "load_scenario", "scenario_from_dict"]
