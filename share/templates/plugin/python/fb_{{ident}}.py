# A formatbench plugin in Python, made by `formatbench new-plugin {{name}}
# --lang python` (formatbench {{version}}). The file fb_{{ident}}.py is the
# plugin py-{{id}}; check it with `formatbench check-plugin fb_{{ident}}.py`.
# Make it yours: replace the format in open, write, read and read_at, keep
# the checks of the input, and say what it is in the docstring's first line
# (the plugin's description). The protocol is in formatbench's
# docs/plugin-guide.md, "A plugin in Python".
"""{{name}}: a 16-byte header, then the array's bytes"""
import os

# Options a study may set: (name, type, default, range or choices, help).
# Types: bool, int, float, string, choice (give the list of choices), size
# (bytes); int, float and size take a range (min, max) or None. Replace
# this one with your format's own, or make the list empty.
OPTIONS = [
    ("buffer", "size", 1 << 20, (4096, 1 << 30), "bytes of open()'s buffer"),
]
# The dtypes the format stores: any of f64, f32, i64, i32, u8.
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
EXTENSION = "{{ident}}"  # the files' extension, without the dot
VERSION = "0.1.0"
# LOSSLESS = False      # for a lossy format: round trips then compare within tolerance
# DIRECTORY = True      # for a format that fills a folder at the path

# The header: the magic, then the element count (little-endian uint64).
MAGIC = b"{{magic}}"
HEADER = len(MAGIC) + 8


class CorruptFile(ValueError):
    """Input that is not this format: formatbench reports it as corrupt."""
    fb_status = "corrupt"


class Plugin:
    """One stream: formatbench makes one instance per open."""

    def open(self, path, mode, dtype, count, shape, options):
        # mode is "w" or "r"; dtype a NumPy dtype; count the elements of the
        # whole file; shape the data set's shape ((count,) for a flat one);
        # options a dict of the OPTIONS' values. An exception fails the open
        # (formatbench removes the file a failed open created).
        self.file = open(path, mode + "b", buffering=options["buffer"])
        if mode == "w":
            self.file.write(MAGIC + count.to_bytes(8, "little"))
            return
        head = self.file.read(HEADER)
        if len(head) < HEADER:
            self.file.close()
            raise EOFError(f"'{path}' is shorter than the {HEADER}-byte header")
        if head[: len(MAGIC)] != MAGIC:
            self.file.close()
            raise CorruptFile(f"'{path}' does not start with the magic {MAGIC!r}")
        stored = int.from_bytes(head[len(MAGIC):], "little")
        size = os.fstat(self.file.fileno()).st_size
        if stored != count or size != HEADER + count * dtype.itemsize:
            self.file.close()
            raise EOFError(f"'{path}' does not hold {count} elements of {dtype} ({size} bytes, header says {stored})")

    def write(self, array):
        # A flat, read-only NumPy array over the host's chunk (no copy).
        self.file.write(array)  # the chunk's bytes as they are in memory

    def read(self, out):
        # A flat, writable NumPy array over the host's buffer: fill it and
        # return None (or return an array of out's size, copied once).
        if self.file.readinto(out) != out.nbytes:
            raise EOFError("the file ends early")

    def read_at(self, offset, out):
        # Optional (random access): elements [offset, offset + out.size).
        # Delete it if the format cannot seek.
        self.file.seek(HEADER + offset * out.itemsize)
        self.read(out)

    def close(self):
        self.file.close()
