"""Shared test setup. Set before anything imports pygame: tests never open a
real window (STYLE.md: headless tests set SDL_VIDEODRIVER=dummy here)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
