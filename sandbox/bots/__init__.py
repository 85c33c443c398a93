"""Users' own programs as players: the process machinery (process.py), the
protocols (protocol.py), and the controllers (external.py: what every
outside player shares; controller.py: a program over a pipe). The user's
side is docs/bots.md."""
