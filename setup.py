# Only wires the C extension in; everything else is in pyproject.toml.
# (setuptools does not accept cffi_modules under [tool.setuptools].)
from setuptools import setup

setup(cffi_modules=["native/build_ffi.py:ffibuilder"])
