"""The words the panels show, explained where they are shown: a widget bound
to a search setting is labelled with the setting's name as the docs write it
(docs/settings.md, `info --settings`) and its hover tip is that setting's
one line of meaning from the same source (SearchParams); the panel's other
terms (the weights tab, the tree legend, the root bars' figures) are
explained in TERMS, once."""
from __future__ import annotations

from ..native import SearchParams

# Panel terms that are not search settings: the word as shown -> its meaning.
TERMS: dict[str, str] = {
    "weights": "the evaluation weights of this player's search (the game's w_* parameters, "
               "players.N.weights in a scenario), shown instead of its search settings",
    "μ": "mean value of the move: the backed-up scores of the simulations through it, "
         "averaged, in the evaluation's units",
    "v": "share of the root's visits that went to this move",
    "p": "the move's probability in the search's final policy, where it is not the visit share",
    "net": "the value net's reading of the position (a search with value_net): 'net value' is "
           "its value for this player, and the gold tick on a move's bar its policy prior for "
           "that move",
    "pass": "a pass-through node (elimination = pass): the agent was out, so the node has one "
            "move and only carries the simulation down",
    "doomed": "a node of certain death: flagged by the game, or every simulation through it "
              "(at least death_min_visits) died; death_penalty takes death_penalty_value "
              "off its value",
    "hidden": "a node the seat shown cannot see (hidden information): its moves are not drawn",
}


def label(name: str) -> str:
    """A setting's name as a panel label: the docs' name, words apart."""
    return name.replace("_", " ")


def setting_tip(name: str) -> str:
    """The hover tip of a widget bound to setting `name`: the name as the docs
    write it and its meaning from the same table ("" for an unknown name)."""
    field = SearchParams.model_fields.get(name)
    if field is None or not field.description:
        return ""
    return f"{name}: {field.description}"


def term_tip(term: str) -> str:
    return f"{term}: {TERMS[term]}" if term in TERMS else ""
