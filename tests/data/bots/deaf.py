#!/usr/bin/env python3
"""Never reads its input and never answers: the sandbox's writes fill the
pipe, and must give up in time instead of blocking the match."""
import time
time.sleep(600)
