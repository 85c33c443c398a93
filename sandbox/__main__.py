import sys

try:
    from .cli import main
except ImportError as exc:
    if type(exc).__name__ != "CoreNotBuilt":   # the C core is missing: one line
        raise
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(1)

sys.exit(main())
