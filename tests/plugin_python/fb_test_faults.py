"""planted faults for the python bridge's tests: raises, a wrong element, a crash

Stores the array's bytes as fb_numpy does; the option `fault` plants one
failure, the environment variable FB_TEST_IMPORT_FAULT=1 a failing import (tests/plugin_python/test_python_bridge.sh).
"""
import ctypes
import os

import numpy as np

OPTIONS = [
    ("fault", "choice", "none", ["none", "raise_write", "raise_read", "wrong_element", "crash_write",
                                  "change_write"],
     "the planted fault"),
    ("element", "int", 0, (0, 2**62), "the element that wrong_element changes"),
]
DTYPES = ["f64"]
EXTENSION = "bin"

# A failing import, where the host prepares the plugin before a case's first
# open (formatbench.prepare/1): only in the worker of the test that asks.
if os.environ.get("FB_TEST_IMPORT_FAULT") == "1":
    raise ImportError("planted import failure")


class Planted(ValueError):
    pass


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.fault, self.element, self.position = options["fault"], options["element"], 0
        self.file = open(path, "wb" if mode == "w" else "rb", buffering=0)

    def write(self, array):
        if self.fault == "raise_write":
            raise Planted("planted failure in write, at element %d" % self.position)
        if self.fault == "change_write":
            array[0] = 0  # the host's buffer is read-only: ValueError
        if self.fault == "crash_write":
            ctypes.string_at(0)  # reads address 0: SIGSEGV in the worker
        array.tofile(self.file)
        self.position += array.size

    def read(self, out):
        if self.fault == "raise_read":
            raise Planted("planted failure in read")
        if self.file.readinto(out) != out.nbytes:
            raise EOFError("file ends early")
        k = self.element - self.position
        if self.fault == "wrong_element" and 0 <= k < out.size:
            out[k] = np.nextafter(out[k], np.inf)  # one element, one ulp off
        self.position += out.size

    def close(self):
        self.file.close()
