"""Colours shared by every view: background and text shades, one colour per
agent, and the value colour map used for node means."""
from __future__ import annotations

BG = (22, 24, 30)
PANEL = (32, 35, 44)
PANEL_HI = (44, 48, 60)
GRID = (52, 56, 68)
BORDER = (70, 76, 92)
TEXT = (225, 228, 235)
TEXT_DIM = (150, 156, 170)
ACCENT = (120, 180, 255)
WARN = (250, 170, 60)
ERROR = (240, 90, 80)
OK = (110, 200, 120)

# Timeline and chart markers: neutral shades, told apart by shape (a triangle
# for an elimination, a square or diamond for a settings change), so that no
# marker reads as a player's colour ("Red out" drawn in red read as Red's
# event). tests/render/test_marker_colors.py keeps them away from every
# player colour of scenarios/ and AGENT_COLORS.
MARKER_COLORS = {"elimination": (245, 245, 245), "settings": (150, 150, 150)}

# Distinct, colour-blind-friendly-ish (Okabe-Ito based) agent colours.
AGENT_COLORS = [
    (230, 80, 70),    # red
    (90, 200, 90),    # green
    (80, 140, 240),   # blue
    (235, 190, 60),   # gold
    (200, 110, 220),  # purple
    (80, 210, 210),   # cyan
    (240, 140, 60),   # orange
    (200, 200, 200),  # grey
]


def agent_color(agent: int, override: tuple[int, int, int] | None = None) -> tuple[int, int, int]:
    return tuple(override) if override else AGENT_COLORS[agent % len(AGENT_COLORS)]


def lerp(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, int, int]:
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


# Value map for normalised means in [0, 1]: bad (dark red) -> neutral (slate)
# -> good (teal-green). Diverging so that the middle reads as "unclear".
_STOPS = [(0.0, (150, 40, 50)), (0.35, (200, 110, 70)), (0.5, (95, 100, 115)),
          (0.7, (70, 160, 150)), (1.0, (90, 220, 120))]
_LUT = []
for _i in range(256):
    _t = _i / 255
    for (_t0, _c0), (_t1, _c1) in zip(_STOPS, _STOPS[1:]):
        if _t <= _t1:
            _LUT.append(lerp(_c0, _c1, (_t - _t0) / (_t1 - _t0)))
            break


def value_color(t: float) -> tuple[int, int, int]:
    """Colour for a normalised value t in [0, 1] (NaN and out-of-range clamp)."""
    if t != t:  # NaN
        t = 0.5
    return _LUT[max(0, min(255, int(t * 255)))]
