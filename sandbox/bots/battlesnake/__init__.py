"""Battlesnake both ways (docs/battlesnake.md): the official game-state JSON
read, checked and converted to our snakes state and back (schema.py,
convert.py); a sandbox agent served as a snake server (server.py, agent.py,
safe.py; served games recorded by served.py); a scenario player that calls
a user's snake server (client.py); a start position read from a /move body
(position_file.py)."""
