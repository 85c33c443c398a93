"""A thinking budget: the model of a scenario's [budget] table, and the same from the command
line's --iterations / --ms."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..names import ScenarioError
from ..native.params import Float, Int

MAX_ITERATIONS = 1_000_000_000   # a budget's bounds (Budget, budget_from_flags)
MAX_MS = 600_000.0


class Budget(BaseModel):
    """Thinking budget per player per turn. With iterations only, a match is
    reproducible move for move; with ms, it depends on machine speed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ms: Float = Field(50.0, ge=0.0, le=MAX_MS, description="milliseconds per turn")
    iterations: Int = Field(0, ge=0, le=MAX_ITERATIONS, description="iterations per turn")
    slice_ms: Float = Field(5.0, gt=0.0, le=10_000.0,
                            description="search slice between snapshots (time budgets)")
    slice_iterations: Int = Field(2000, ge=1, le=100_000_000,
                                  description="search slice between snapshots (iteration budgets)")

    @model_validator(mode="after")
    def _some_budget(self) -> "Budget":
        if self.ms == 0 and self.iterations == 0:
            raise ValueError("give ms > 0, iterations > 0, or both")
        return self


def budget_from_flags(iterations: int | None, ms: float | None) -> Budget | None:
    """The budget of the command-line flags --iterations / --ms (iterations
    win when both are given; None when neither is). A value out of range
    raises ScenarioError with one line naming the flag, never pydantic's
    report."""
    if iterations is not None:
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ScenarioError(f"--iterations must be in 1..{MAX_ITERATIONS:,} "
                                f"(got {iterations})")
        return Budget(iterations=iterations, ms=0)
    if ms is not None:
        if not 0 < ms <= MAX_MS:   # also refuses nan and inf
            raise ScenarioError(f"--ms must be > 0 and <= {MAX_MS:,.0f} (got {ms})")
        return Budget(ms=ms)
    return None
