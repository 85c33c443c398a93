"""Validated configuration: scenario files (TOML) and their pydantic models."""
from .scenario import (Budget, PlayerConfig, RecordConfig, Scenario, ScenarioError,
                       budget_from_flags, find_scenario, list_scenarios, load_scenario,
                       scenario_from_dict)

__all__ = ["Budget", "PlayerConfig", "RecordConfig", "Scenario", "ScenarioError",
           "budget_from_flags", "find_scenario", "list_scenarios", "load_scenario",
           "scenario_from_dict"]
