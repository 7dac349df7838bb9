"""numpy tofile/fromfile: the array's bytes and nothing else, as raw writes them

A formatbench plugin in Python (docs/plugin-guide.md, "Plugins in Python").
write() hands ndarray.tofile the host's own buffer; read() returns what
numpy.fromfile read, which the bridge copies once into the host's buffer
(reported apart as python_copy_s); read_at() reads into the host's buffer.
"""
import numpy as np

OPTIONS = []  # (name, type, default, range or choices, help)
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
EXTENSION = "bin"
VERSION = np.__version__


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count = path, dtype, count
        self.file = open(path, "wb" if mode == "w" else "rb", buffering=0)
        if mode == "r":
            size = self.file.seek(0, 2)
            self.file.seek(0)
            if size != count * dtype.itemsize:
                self.file.close()
                raise EOFError(f"'{path}' holds {size} bytes, not the {count} elements of "
                               f"{dtype.itemsize} bytes asked for")

    def write(self, array):
        array.tofile(self.file)

    def read(self, out):
        got = np.fromfile(self.file, dtype=self.dtype, count=out.size)
        if got.size != out.size:
            raise EOFError(f"'{self.path}' ends after {got.size} of {out.size} elements")
        return got

    def read_at(self, offset, out):
        self.file.seek(offset * self.dtype.itemsize)
        if self.file.readinto(out) != out.nbytes:
            raise EOFError(f"'{self.path}' ends before element {offset + out.size}")

    def close(self):
        self.file.close()
