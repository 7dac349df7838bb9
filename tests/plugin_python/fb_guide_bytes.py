"""bytes: the array's bytes and nothing else, through Python's file objects"""
import os

OPTIONS = [  # (name, type, default, range or choices, help)
    ("buffer", "size", 8192, (1, 2**24), "bytes of open()'s buffer"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
EXTENSION = "bin"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.file = open(path, mode + "b", buffering=options["buffer"])
        if mode == "r" and os.fstat(self.file.fileno()).st_size != count * dtype.itemsize:
            self.file.close()
            raise EOFError(f"'{path}' does not hold {count} elements of {dtype}")

    def write(self, array):           # a read-only view of the host's buffer
        self.file.write(array)

    def read(self, out):              # the host's buffer: fill it
        if self.file.readinto(out) != out.nbytes:
            raise EOFError("the file ends early")

    def read_at(self, offset, out):   # optional: random access
        self.file.seek(offset * out.itemsize)
        self.read(out)

    def close(self):
        self.file.close()
