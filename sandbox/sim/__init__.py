"""sandbox.sim — headless play. Never imports pygame.

controller.py (the Controller interface and the players that run in the
process: searches, random, a game's bot or yardstick, a person), world.py
(the real game), records.py (what a turn leaves) sit below sandbox.bots,
whose outside players are Controllers too; match.py (the turn loop, which
asks sandbox.bots for the players it does not run), live.py (pacing for
watching) and series.py (many matches) sit above it. So this __init__
imports none of them: importing one part must not load the others."""
