"""sandbox.settings — search settings, between a scenario and a running search.

algorithms.py   what each algorithm and selection policy is (labels, tips,
                the trees it keeps, whether C runs it on a game)
seat.py         a player's settings as its search receives them (the seat
                filled in, its own evaluation weights in a game of its own)
doc.py          every setting with its range, default and readers
                (`info --settings`, docs/settings.md)

Below the config and sim layers (it reads the C core and the game registry
only), so the walk from a scenario's player to a running search goes down:
config -> settings -> native, whoever starts the search (the live
controller, a replay's re-search, a served agent)."""
