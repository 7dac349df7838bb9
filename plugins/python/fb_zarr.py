"""zarr 2: one array of the data set's shape in a DirectoryStore (a folder of chunk files), numcodecs' compressors

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The array is created at open with the data set's shape, in chunks of
whole rows (slabs along axis 0 of about `chunk` elements), so that a chunk
is a run of the flat array. write() hands zarr whole chunks only: runs of whole chunks straight from the host's buffer,
the rest gathered in a chunk-sized buffer first (zarr would read back and
rewrite a chunk for every write that fills it in part: 10^4 writes of one
element took over 10 s). read() and read_at() decode straight into the
host's buffer (get_basic_selection with out=), a run as the few boxes of
the shape it covers, as read_box() reads a box; a read of part of one
chunk is served from the last chunk decoded, kept as the module's cache.
"""
import os

import numcodecs
import numpy as np
import zarr

from fb_boxes import boxes

OPTIONS = [
    # (name, type, default, range or choices, help)
    ("chunk", "int", 1048576, (4096, 2**31 - 1),
     "elements per chunk (one file each; whole rows of an N-D shape, at least one)"),
    ("compressor", "choice", "none", ["none", "zstd", "lz4", "zlib", "blosc"], "numcodecs compressor"),
    ("level", "int", 1, (1, 9), "compression level (zstd, zlib, blosc's clevel; lz4's acceleration)"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
DIRECTORY = True
VERSION = zarr.__version__

# Blosc's own thread pool would outlive the calls (a plugin's threads end
# before its calls return): one thread, the caller's.
numcodecs.blosc.use_threads = False
numcodecs.blosc.set_nthreads(1)


def _compressor(name, level):
    if name == "zstd":
        return numcodecs.Zstd(level=level)
    if name == "lz4":
        return numcodecs.LZ4(acceleration=level)
    if name == "zlib":
        return numcodecs.Zlib(level=level)
    if name == "blosc":
        return numcodecs.Blosc(cname="zstd", clevel=level, shuffle=numcodecs.Blosc.SHUFFLE)
    return None


class Corrupt(Exception):
    fb_status = "corrupt"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.position = path, 0
        self.cached = None  # (first element, the decoded chunk, flat)
        if mode == "w":
            # DirectoryStore makes every missing folder on the way: a
            # plugin creates nothing but its path.
            parent = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(parent):
                raise FileNotFoundError(f"cannot create '{path}': '{parent}' is not a folder")
            shape = tuple(shape)
            inner = int(np.prod(shape[1:], dtype=np.int64))
            rows = max(1, min(options["chunk"] // max(1, inner), shape[0]))
            self.array = zarr.open_array(zarr.DirectoryStore(path), mode="w", shape=shape,
                                         chunks=(rows,) + shape[1:], dtype=dtype,
                                         compressor=_compressor(options["compressor"], options["level"]),
                                         fill_value=None)
            self.chunk = rows * inner  # elements of a chunk: a run of the flat array
            self.pending = np.empty(self.chunk, dtype=dtype)
            self.filled = 0  # elements in pending, which start at self.position
            return
        if not os.path.isdir(path):
            raise FileNotFoundError(f"'{path}' is not a folder of a zarr array")
        try:
            self.array = zarr.open_array(zarr.DirectoryStore(path), mode="r")
        except Exception as e:
            raise Corrupt(f"not a zarr array: {type(e).__name__}: {e}") from None
        if self.array.dtype != dtype:
            raise Corrupt(f"the array is of {self.array.dtype}, not {dtype}")
        if self.array.size < count:
            raise EOFError(f"the array holds {self.array.size} elements, not {count}")
        if len(shape) > 1 and tuple(shape) != self.array.shape:
            raise NotImplementedError(f"the array has the shape {self.array.shape}, not {tuple(shape)}")

    def rows(self, first, end):
        """The flat elements [first, end), whole rows of the shape, as a slice of axis 0."""
        inner = int(np.prod(self.array.shape[1:], dtype=np.int64))
        return slice(first // inner, end // inner)

    def write(self, array):
        done, n = 0, array.size
        while done < n:
            if self.filled == 0 and n - done >= self.chunk:
                whole = (n - done) // self.chunk * self.chunk
                self.array[self.rows(self.position, self.position + whole)] = \
                    array[done:done + whole].reshape((-1,) + self.array.shape[1:])
                self.position += whole
                done += whole
                continue
            take = min(self.chunk - self.filled, n - done)
            self.pending[self.filled:self.filled + take] = array[done:done + take]
            self.filled += take
            done += take
            if self.filled == self.chunk:
                self.flush()

    def flush(self):
        if self.filled:
            self.array[self.rows(self.position, self.position + self.filled)] = \
                self.pending[:self.filled].reshape((-1,) + self.array.shape[1:])
            self.position += self.filled
            self.filled = 0

    def read(self, out):
        self.read_at(self.position, out)
        self.position += out.size

    def read_at(self, offset, out):
        end = offset + out.size
        if end > self.array.size:
            raise EOFError(f"the array ends before element {end}")
        if not out.size:
            return
        shape, chunks = self.array.shape, self.array.chunks
        chunk = int(np.prod(chunks, dtype=np.int64))
        if chunks[1:] == shape[1:]:  # chunks are runs of the flat array: the cache serves part of one
            first = offset // chunk * chunk
            last = min(first + chunk, self.array.size)
            if end <= last and not (offset == first and end == last):
                if self.cached is None or self.cached[0] != first:
                    self.cached = (first, self.array[self.rows(first, last)].reshape(-1))
                out[:] = self.cached[1][offset - first:end - first]
                return
        for slices, extents, at in boxes(shape, offset, end):
            self.array.get_basic_selection(slices, out=out[at:at + int(np.prod(extents))].reshape(extents))

    def read_box(self, start, count, out):
        if out.size:
            self.array.get_basic_selection(tuple(slice(s, s + c) for s, c in zip(start, count)),
                                           out=out.reshape(count))

    def close(self):
        if hasattr(self, "pending"):
            self.flush()
