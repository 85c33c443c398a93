"""Python-side knowledge of each game: decoding its flat export for renderers
and replays, move names and colours. Rules live in C (native/src/games)."""
from .snakes import SnakeView, SnakesView, decode_snakes

DECODERS = {"snakes": decode_snakes}


def decode(kind: str, words):
    try:
        return DECODERS[kind](words)
    except KeyError:
        raise ValueError(f"no decoder for game kind '{kind}'") from None


__all__ = ["DECODERS", "SnakeView", "SnakesView", "decode", "decode_snakes"]
