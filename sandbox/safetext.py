"""Text from files and flags that will reach a terminal or the app: which
characters it may not hold.

A terminal obeys control characters: ESC starts sequences that clear the
screen, move the cursor or retitle the window, and a carriage return or a
newline lets a forged name print a line of its own (`result: winner=1`).
Bidirectional controls (the right-to-left override and its kin) reorder what
is shown after them, so a name can display as something it is not. Neither
belongs in a name, a scenario or an agent file's text, a setting's value or
a replay header: they are refused where such text is read, with one line
naming the character, rather than escaped in every place that prints.
"""
from __future__ import annotations

# bidi embeddings, overrides and isolates, the marks, and the Arabic letter
# mark; the line and paragraph separators break lines like a newline
_FORMAT_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                             "\u200e\u200f\u061c\u2028\u2029")


def unsafe_char(text: str, newlines: bool = False) -> str | None:
    """A description of the first character `text` may not hold, or None.
    C0 and C1 control characters and DEL, bidi controls and the Unicode line
    separators; `newlines` allows "\\n" and "\\t" (multi-line text such as a
    scenario's description)."""
    for ch in text:
        o = ord(ch)
        if newlines and ch in "\n\t":
            continue
        if o < 32 or 127 <= o < 160:
            return f"a control character (U+{o:04X})"
        if ch in _FORMAT_CONTROLS:
            return f"a bidirectional or line control character (U+{o:04X})"
    return None


def check_strings(value: object, where: str = "") -> None:
    """ValueError naming the first string inside `value` (nested dicts and
    lists walked, keys included) that holds an unsafe character; newlines
    are allowed only in a field named `description`."""
    if isinstance(value, str):
        why = unsafe_char(value, newlines=where.endswith("description"))
        if why:
            raise ValueError(f"{where or 'text'}: has {why}")
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                check_strings(k, f"{where}.{k}" if where else str(k))
            check_strings(v, f"{where}.{k}" if where else str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_strings(v, f"{where}[{i}]")

