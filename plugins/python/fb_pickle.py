"""pickle: an ndarray of the data set's shape pickled with protocol 5, its bytes as an out-of-band buffer after the stream

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
pickle.dump of protocol 5 hands an array's bytes to `buffer_callback` as a
PickleBuffer instead of copying them into the stream (out_of_band: true,
the default); they are then written after the stream, and pickle.load gets
them back through `buffers=`. With out_of_band: false the bytes are inside
the stream (protocol 5's BYTEARRAY8), as pickle.dump writes them alone.

The file (all integers unsigned 64-bit little-endian):

    offset 0         8 bytes   magic b"FBPICKL5"
    offset 8         P         length of the pickle stream in bytes
    offset 16        N         number of out-of-band buffers (1, or 0 in-band)
    offset 24        N x 8     length in bytes of each buffer, in the order
                               buffer_callback got them
    offset 24 + 8N   P bytes   the pickle stream (protocol 5)
    then             the buffers' raw bytes, back to back, nothing between

and nothing after: the file's size is 24 + 8N + P + the buffers' lengths.
To read it in plain Python: check the magic, unpack the three fields with
struct ('<8sQQ', then '<NQ'), and call pickle.loads(stream, buffers=[the
buffers' bytes]).

The array is pickled whole, so write() gathers the host's chunks into an
array allocated at open and the dump happens at close, except where one
write hands the whole array: it is pickled straight from the host's
buffer. The first read loads the file: out of band, the buffer's bytes are
read straight into the host's buffer when that read asks for the whole
array (the unpickled array is then a view of it: no copy), else into an
array of the module's whose slices each read returns (copied once by the
bridge, python_copy_s); in-band, the unpickled array's slices are returned
so. Loading resolves only numpy's two globals an array's pickle names
(numpy.core.numeric._frombuffer and numpy.dtype): a file naming any other
is refused as corrupt, not run.
"""
import io
import os
import pickle
import struct

import numpy as np

OPTIONS = [  # (name, type, default, range or choices, help)
    ("out_of_band", "bool", True, None,
     "true: the array's bytes as a protocol 5 out-of-band buffer after the stream; false: inside the stream"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
EXTENSION = "pkl"
VERSION = "1.0"

MAGIC = b"FBPICKL5"
_HEAD = struct.Struct("<8sQQ")
# The globals a protocol 5 pickle of a contiguous ndarray names.
_ALLOWED = {("numpy.core.numeric", "_frombuffer"), ("numpy", "dtype")}


class Corrupt(Exception):
    fb_status = "corrupt"


class _ArrayUnpickler(pickle.Unpickler):
    """Resolves only the globals an ndarray's pickle needs."""

    def find_class(self, module, name):
        if (module, name) not in _ALLOWED:
            raise Corrupt(f"the pickle names {module}.{name}, which is not part of an ndarray's pickle")
        return super().find_class(module, name)


def dump(file, array, out_of_band):
    """Writes the file described above for `array`."""
    buffers = []
    stream = pickle.dumps(array, protocol=5, buffer_callback=buffers.append if out_of_band else None)
    raws = [b.raw() for b in buffers]
    file.write(_HEAD.pack(MAGIC, len(stream), len(raws)))
    file.write(struct.pack(f"<{len(raws)}Q", *(r.nbytes for r in raws)))
    file.write(stream)
    for raw in raws:
        file.write(raw)


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count, self.shape = path, dtype, count, tuple(shape)
        self.out_of_band = options["out_of_band"]
        self.position = 0
        self.array = None  # read: the unpickled array, flat
        self.gathered = None  # write: the host's chunks, when they come in several writes
        self.dumped = mode == "r"  # nothing to write
        # Buffered: a raw file's write may write part and return (past a
        # file size limit), where a buffered one goes on and raises.
        self.file = open(path, "wb" if mode == "w" else "rb")
        if mode == "r":
            try:
                self.read_head()
            except BaseException:
                self.file.close()
                raise

    def read_head(self):
        """Checks the header against the file's size; keeps the lengths."""
        size = os.fstat(self.file.fileno()).st_size
        head = self.file.read(_HEAD.size)
        if len(head) < _HEAD.size:
            raise EOFError(f"the file ends within its {_HEAD.size}-byte header ({len(head)} bytes)")
        magic, self.stream_length, n = _HEAD.unpack(head)
        if magic != MAGIC:
            raise Corrupt(f"no magic {MAGIC!r} (found {magic!r})")
        if n > 1:
            raise Corrupt(f"{n} out-of-band buffers (an array's pickle has at most 1)")
        lengths = self.file.read(8 * n)
        if len(lengths) < 8 * n:
            raise EOFError("the file ends within its buffer lengths")
        self.buffer_lengths = struct.unpack(f"<{n}Q", lengths)
        expected = _HEAD.size + 8 * n + self.stream_length + sum(self.buffer_lengths)
        if expected != size:
            raise (EOFError if size < expected else Corrupt)(
                f"the header gives {expected} bytes, the file has {size}")
        if n and self.buffer_lengths[0] != self.count * self.dtype.itemsize:
            raise Corrupt(f"the buffer holds {self.buffer_lengths[0]} bytes, not {self.count} elements "
                          f"of {self.dtype.itemsize} bytes")

    def write(self, array):
        if self.position == 0 and array.size == self.count and not self.dumped:
            dump(self.file, array.reshape(self.shape), self.out_of_band)
            self.dumped = True
        elif array.size:
            if self.gathered is None:
                self.gathered = np.empty(self.count, dtype=self.dtype)
            self.gathered[self.position:self.position + array.size] = array
        self.position += array.size

    def load(self, out):
        """Unpickles the file; returns the array, flat (a view of `out` where
        its bytes were read straight into it)."""
        stream = self.file.read(self.stream_length)
        if len(stream) != self.stream_length:
            raise EOFError("the file ends within the pickle stream")
        buffers = []
        if self.buffer_lengths:
            into = out if out.size == self.count else np.empty(self.count, dtype=self.dtype)
            if self.file.readinto(into) != into.nbytes:
                raise EOFError("the file ends within the out-of-band buffer")
            buffers.append(pickle.PickleBuffer(into))
        try:
            array = _ArrayUnpickler(io.BytesIO(stream), buffers=buffers).load()
        except Corrupt:
            raise
        except Exception as e:
            raise Corrupt(f"the pickle stream does not load: {type(e).__name__}: {e}") from None
        if not isinstance(array, np.ndarray) or array.dtype != self.dtype or array.size != self.count:
            raise Corrupt(f"the pickle holds {type(array).__name__} "
                          f"{getattr(array, 'shape', '')} {getattr(array, 'dtype', '')}, "
                          f"not {self.count} elements of {self.dtype}")
        if len(self.shape) > 1 and array.shape != self.shape:
            raise NotImplementedError(f"the array has the shape {array.shape}, not {self.shape}")
        return array.reshape(-1)

    def read(self, out):
        if self.array is None:
            self.array = self.load(out)
            if np.shares_memory(self.array, out):  # read straight into the host's buffer
                # The array is a view of the host's buffer, which the module
                # must not keep past the call: nothing is left to read.
                self.array = self.array[:0].copy()
                self.position = out.size
                return None
        got = self.array[self.position:self.position + out.size]
        if got.size != out.size:
            raise EOFError(f"the array ends after {self.position + got.size} of "
                           f"{self.position + out.size} elements")
        self.position += out.size
        return got

    def close(self):
        try:
            if not self.dumped:
                whole = self.gathered if self.gathered is not None else np.empty(self.count, dtype=self.dtype)
                dump(self.file, whole.reshape(self.shape), self.out_of_band)
        finally:
            self.file.close()
