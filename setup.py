# Only wires the C extension in; everything else is in pyproject.toml.
# (setuptools does not accept cffi_modules under [tool.setuptools].)
import os

from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """An SBX_SANITIZE=1 build (native/build_ffi.py) compiles and, in place,
    links in directories of its own: setuptools reuses any object or library
    newer than its sources, whatever flags made it, so switching between the
    normal and the sanitizer build would otherwise link or copy the other's."""

    def finalize_options(self):
        super().finalize_options()
        if os.environ.get("SBX_SANITIZE", "") not in ("", "0"):
            self.build_temp = os.path.join(self.build_temp, "sanitize")
            if self.inplace:   # build_lib is only scratch then (copied from)
                self.build_lib = os.path.join(self.build_lib, "sanitize")

    def run(self):
        # In place, the built library is copied over the one in the tree only
        # if it is newer, so going back from a sanitizer build to a normal one
        # (whose library is older) would keep the sanitizer one: remove it.
        if self.inplace:
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
        super().run()


setup(cffi_modules=["native/build_ffi.py:ffibuilder"], cmdclass={"build_ext": BuildExt})
