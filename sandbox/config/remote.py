"""The address of a remote player (a program of the user's reached over
HTTP: controller = "battlesnake"), checked once for the scenario, the agent
file and the controller alike."""
from __future__ import annotations

import urllib.parse

from ..safetext import unsafe_char


def url_problem(url: object) -> str:
    """Why `url` is not an http(s) address the client can call ("" if it
    is): a scheme and a host, a port in 1..65535, no user name or password
    (the client sends none), and no space or control character anywhere (a
    request line holds the path as it is)."""
    if not isinstance(url, str) or not url.strip():
        return f"expected an http:// or https:// address, got {url!r}"
    text = url.strip()
    shown = repr(text if len(text) <= 80 else text[:80] + "...")
    if any(c.isspace() for c in text) or unsafe_char(text):
        return f"{shown} has a space or a control character"
    try:
        u = urllib.parse.urlsplit(text)
        host = u.hostname
    except ValueError:
        return f"{shown} is not an http:// or https:// address"
    if u.scheme not in ("http", "https") or not host:
        return f"{shown} is not an http:// or https:// address with a host"
    try:
        port = u.port
    except ValueError:
        port = 0
    if port is not None and not 1 <= port <= 65535:
        return f"{shown} has a bad port (1..65535)"
    if u.username is not None or u.password is not None:
        return f"{shown} holds a user name or password (the client sends none)"
    if u.query or u.fragment:
        return f"{shown} has a query or fragment (give the server's base address)"
    return ""
