"""Custom pygame events posted by widgets; scenes turn them into commands."""
from __future__ import annotations

from typing import Any

import pygame

UI_EVENT = pygame.event.custom_type()


def post_change(wid: str, value: Any) -> None:
    pygame.event.post(pygame.event.Event(UI_EVENT, {"kind": "change", "id": wid, "value": value}))


def post_click(wid: str) -> None:
    pygame.event.post(pygame.event.Event(UI_EVENT, {"kind": "click", "id": wid, "value": None}))


def is_ui(event: pygame.event.Event, kind: str | None = None) -> bool:
    return event.type == UI_EVENT and (kind is None or event.kind == kind)
