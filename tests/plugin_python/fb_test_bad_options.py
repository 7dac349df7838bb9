"""a module whose OPTIONS table is wrong: its plugin must not be made

Entry 1 gives the int option `level` a default outside its range
(tests/plugin_python/test_python_bridge.sh).
"""
OPTIONS = [
    ("mode", "choice", "a", ["a", "b"], "a valid entry"),
    ("level", "int", 12, (0, 9), "a default outside its range"),
]
DTYPES = ["f64"]


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        pass

    def write(self, array):
        pass

    def read(self, out):
        pass

    def close(self):
        pass
