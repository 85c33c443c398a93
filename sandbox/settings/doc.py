"""The search settings a user may write in a scenario's `[players.search]`,
an agent file, `--set players.N.search.NAME=...` or `sweep --param`: every
one with its type, range or choices, default, the algorithms that read it
and one line of meaning (`python -m sandbox info --settings`).

Ranges and defaults come from the C core's own table (what it enforces),
choice names and the one-line meanings from SearchParams; only "which
algorithms read it" is kept here, and tests/test_settings_doc.py checks it
against the C sources, so a setting an algorithm starts reading shows up.
"""
from __future__ import annotations

from typing import Any

from ..native import SearchParams
from ..native.params import CHOICES, PYTHON_ONLY, UCT_DEFAULT_C, c_param_table, default_final_move

_UCB = ("smitsimax", "suct", "joint")
# Read by the search loop itself (api.c), whatever the algorithm.
_ALL = ("smitsimax", "suct", "joint", "random", "greedy", "mcgs", "uct", "gtcfr", "pubcfr")
USED_BY: dict[str, tuple[str, ...]] = {
    "c": _UCB + ("uct",),
    "gamma": _UCB,
    "death_penalty_value": ("smitsimax",),
    "reuse_decay": _UCB,
    "max_depth": _UCB + ("mcgs", "gtcfr", "pubcfr"),
    "random_threshold": _UCB,
    "depth_normalize": _UCB,
    "bounds": ("smitsimax",),
    "elimination": ("smitsimax", "suct", "joint"),
    "death_penalty": ("smitsimax",),
    "death_min_visits": ("smitsimax",),
    "rollout": _UCB + ("gtcfr",),
    "tree_reuse": _UCB + ("mcgs", "gtcfr", "pubcfr"),
    "node_cap": ("smitsimax", "suct", "joint", "mcgs", "uct", "gtcfr", "pubcfr"),
    "time_check_interval": _ALL,
    "exploration": ("smitsimax",),
    "power_p": ("smitsimax",),
    "algorithm": _ALL,
    "policy": ("smitsimax", "suct"),
    "final_move": ("smitsimax", "mcgs", "gtcfr", "pubcfr"),
    "avg_weight": ("smitsimax",),
    "backup": ("smitsimax",),
    "lead": ("suct", "uct"),
    "c_puct": ("mcgs", "gtcfr", "pubcfr", "joint", "smitsimax", "suct"),
    "fpu_offset": ("mcgs", "joint", "smitsimax", "suct"),
    "temperature": ("smitsimax", "mcgs", "gtcfr", "pubcfr"),
    "rollout_steps": ("mcgs",),
    "short_circuit": ("mcgs",),
    "transpositions": ("mcgs",),
    "priors": ("mcgs", "gtcfr", "pubcfr", "joint", "smitsimax", "suct"),
    "prior_temperature": ("mcgs", "gtcfr", "joint", "smitsimax", "suct"),
    "threads": ("smitsimax", "mcgs"),
    "parallel": ("smitsimax", "mcgs"),
    "virtual_loss": ("smitsimax", "mcgs", "gtcfr"),
    "counterfactual": ("smitsimax",),
    "expansions_per_update": ("gtcfr", "pubcfr"),
    "expand_children": ("gtcfr",),
    "alternating": ("gtcfr",),
    "leaf_rollouts": ("gtcfr",),
    "expand_after": ("gtcfr",),
    "grow_tree": ("pubcfr",),
    "info_seat": ("smitsimax", "random", "pubcfr"),
    "exploration_decay": ("smitsimax",),
    "safe_moves": ("smitsimax",),
    "resolve_mix": ("pubcfr",),
    "relative_scores": ("smitsimax", "mcgs", "suct", "joint"),
    "value_net": ("mcgs", "gtcfr", "pubcfr", "smitsimax", "suct", "joint"),
}


def _number(x: float, kind: str) -> str:
    if kind in ("int", "bool"):
        return f"{int(x):,}"
    return f"{x:g}"


def settings_rows() -> list[dict[str, Any]]:
    """One row per setting, in the C table's order."""
    fields = SearchParams.model_fields
    rows = []
    for r in c_param_table():
        name, kind = r["name"], r["type"]
        default = fields[name].default
        if kind == "choice":
            values = " / ".join(CHOICES[name][0])
        elif kind == "bool":
            values = "true / false"
        else:
            values = f"{_number(r['min'], kind)} .. {_number(r['max'], kind)}"
        if kind == "bool":
            shown = str(bool(default)).lower()
        elif kind == "float":
            shown = f"{default:g}"
        else:
            shown = str(default)
        if name == "c":
            shown += f" ({UCT_DEFAULT_C:g} for uct)"
        if name == "final_move":
            shown += f" ({default_final_move('gtcfr')} for gtcfr and pubcfr)"
        rows.append({"name": name, "type": "choice" if kind == "choice" else kind,
                     "values": values, "default": shown,
                     "used_by": list(USED_BY.get(name, ())),
                     "meaning": fields[name].description or r["doc"]})
    # the settings the Python layer applies (not in the core's table)
    for name in PYTHON_ONLY:
        rows.append({"name": name, "type": "path", "values": "a file name or \"\"",
                     "default": f"{fields[name].default!r}".replace("'", '"'),
                     "used_by": list(USED_BY.get(name, ())),
                     "meaning": fields[name].description or ""})
    return rows


def settings_text() -> str:
    lines = ["search settings ([players.search] in a scenario or agent file, "
             "--set players.N.search.NAME=VALUE, sweep --param NAME=...):"]
    for r in settings_rows():
        lines.append(f"\n  {r['name']}  ({r['type']}: {r['values']}; default {r['default']})")
        lines.append(f"      read by: {', '.join(r['used_by'])}")
        lines.append(f"      {r['meaning']}")
    return "\n".join(lines) + "\n"


def settings_markdown() -> str:
    out = ["# Search settings", "",
           "Every setting a scenario's `[players.search]` table, an agent file, "
           "`--set players.N.search.NAME=VALUE` or `sweep --param NAME=...` accepts. "
           "Generated by `python -m sandbox info --settings --markdown` from the core's "
           "own table of ranges and defaults; a setting an algorithm does not read is "
           "accepted and ignored.", "",
           "| setting | values | default | read by | meaning |",
           "|---|---|---|---|---|"]
    for r in settings_rows():
        meaning = r["meaning"].replace("|", "\\|")
        out.append(f"| `{r['name']}` | {r['values']} | {r['default']} | "
                   f"{', '.join(r['used_by'])} | {meaning} |")
    return "\n".join(out) + "\n"




# Smitsimax settings that only some of its selection policies read.
_UCB_FAMILY = ("ucb1", "ucb1_tuned")
_SAMPLING = ("exp3", "rm", "rm_plus")
SMITSIMAX_POLICY_ONLY: dict[str, tuple[str, ...]] = {
    "c": _UCB_FAMILY, "random_threshold": _UCB_FAMILY, "death_penalty": _UCB_FAMILY,
    "death_penalty_value": _UCB_FAMILY, "death_min_visits": _UCB_FAMILY,
    "bounds": _UCB_FAMILY, "backup": ("ucb1",), "power_p": ("ucb1",),
    "exploration": _SAMPLING, "exploration_decay": _SAMPLING, "avg_weight": _SAMPLING,
    "counterfactual": ("rm", "rm_plus"),
}


def setting_is_read(settings: SearchParams, name: str) -> bool:
    """Whether the search these settings make reads `name` at all (a change
    of one it does not read changes nothing: say so rather than let a user
    believe a re-search measured it)."""
    algo = settings.algorithm
    if algo not in USED_BY.get(name, ()):
        return False
    if algo == "smitsimax" and name in SMITSIMAX_POLICY_ONLY:
        return settings.policy in SMITSIMAX_POLICY_ONLY[name]
    if name == "temperature":   # shapes only a sampled final move
        return settings.final_move == "sample"
    return True


def search_label(settings: SearchParams) -> str:
    """'smitsimax / exp3', 'mcgs': the algorithm, and the policy where the
    algorithm has one."""
    if settings.algorithm in ("smitsimax", "suct"):
        return f"{settings.algorithm} / {settings.policy}"
    return settings.algorithm


__all__ = ["SMITSIMAX_POLICY_ONLY", "USED_BY", "search_label", "setting_is_read",
           "settings_markdown", "settings_rows", "settings_text"]
