"""The simultaneous-move search sandbox."""
import os as _os

# numpy's OpenBLAS starts worker threads that spin-wait; the sandbox does no
# linear algebra and its search threads need the cores. Set before any numpy
# import (users can still override it in the environment).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
