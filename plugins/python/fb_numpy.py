"""numpy: ndarray.tofile / numpy.fromfile (the array's bytes, as raw), a .npy file (np.save's format), or numpy.memmap

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
api tofile: write() hands ndarray.tofile the host's own buffer; read()
returns what numpy.fromfile read, which the bridge copies once into the
host's buffer (reported apart as python_copy_s). api save: a .npy file as
numpy.save writes it, its header by numpy.lib.format (the function
np.save calls) at open, then each chunk by tofile (np.save's own way of
writing a contiguous array's data); read() takes numpy.load's array, loaded
at the first read, and returns its slices. read_at() reads into the host's
buffer in both, and read_box() (planes) reads each row of the box so.
api memmap: the array's bytes, as raw, through numpy.memmap: mode w+ of
the data set's shape at open (its blocks reserved first with
posix_fallocate, so that a full disk is an error at open rather than
SIGBUS on a page of the map), each write a slice assignment into the map,
unmapped at close without memmap.flush() (an msync of the whole map: the
mmap plugin does not sync either unless asked, and a study that wants the
data on disk says `sync`); reads through a memmap of mode r, read(), read_at() and
read_box() (planes) copying the map's slices into the host's buffer.
"""
import os

import numpy as np

OPTIONS = [  # (name, type, default, range or choices, help)
    ("api", "choice", "tofile", ["tofile", "save", "memmap"],
     "tofile: tofile/fromfile, the bytes alone; save: a .npy file (np.save's header), read by np.load; "
     "memmap: the bytes alone through numpy.memmap"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
VERSION = np.__version__


class Corrupt(Exception):
    fb_status = "corrupt"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count, self.position = path, dtype, count, 0
        self.shape = tuple(shape)
        self.save = options["api"] == "save"
        self.loaded = None
        self.map = None
        if options["api"] == "memmap":
            self.open_memmap(path, mode, dtype, count, shape)
            return
        self.file = open(path, "wb" if mode == "w" else "rb", buffering=0)
        try:
            if mode == "w":
                if self.save:
                    header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
                              "shape": tuple(shape)}
                    np.lib.format.write_array_header_1_0(self.file, header)
                self.data_offset = self.file.tell()
                return
            if self.save:
                try:
                    version = np.lib.format.read_magic(self.file)
                    if version not in ((1, 0), (2, 0)):
                        raise ValueError(f"format version {version} (this module reads 1.0 and 2.0)")
                    read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0) else
                                   np.lib.format.read_array_header_2_0)
                    header = read_header(self.file)
                except ValueError as e:
                    raise Corrupt(f"not a .npy file: {e}") from None
                if header[2] != dtype or int(np.prod(header[0])) != count:
                    raise Corrupt(f"holds {header[0]} of {header[2]}, not {count} elements of {dtype}")
            self.data_offset = self.file.tell()
            size = self.file.seek(0, 2) - self.data_offset
            self.file.seek(self.data_offset)
            if size != count * dtype.itemsize:
                raise EOFError(f"'{path}' holds {size} bytes of data, not the {count} elements of "
                               f"{dtype.itemsize} bytes asked for")
        except BaseException:
            self.file.close()
            raise

    def open_memmap(self, path, mode, dtype, count, shape):
        if mode == "w":
            # memmap maps the file object it is given (a path it would
            # open again, truncating the reserved blocks).
            self.file = open(path, "w+b", buffering=0)
            if count == 0:  # numpy cannot map an empty file
                return
            try:
                os.posix_fallocate(self.file.fileno(), 0, count * dtype.itemsize)
                self.map = np.memmap(self.file, dtype=dtype, mode="w+", shape=self.shape)
            except BaseException:
                self.file.close()
                raise
            self.flat = self.map.reshape(-1)
            return
        size = os.stat(path).st_size
        if size != count * dtype.itemsize:
            raise EOFError(f"'{path}' holds {size} bytes, not the {count} elements of "
                           f"{dtype.itemsize} bytes asked for")
        self.file = None
        if count:
            self.map = np.memmap(path, dtype=dtype, mode="r", shape=self.shape)
            self.flat = self.map.reshape(-1)
        else:
            self.flat = np.empty(0, dtype=dtype)

    def write(self, array):
        if self.map is not None:
            self.flat[self.position:self.position + array.size] = array
            self.position += array.size
            return
        array.tofile(self.file)

    def read(self, out):
        if self.map is not None or self.file is None:
            self.read_at(self.position, out)
            self.position += out.size
            return None
        if self.save:
            if self.loaded is None:
                self.file.seek(0)
                self.loaded = np.load(self.file, allow_pickle=False).reshape(-1)
            got = self.loaded[self.position:self.position + out.size]
        else:
            got = np.fromfile(self.file, dtype=self.dtype, count=out.size)
        if got.size != out.size:
            raise EOFError(f"'{self.path}' ends after {self.position + got.size} of "
                           f"{self.position + out.size} elements")
        self.position += out.size
        return got

    def read_at(self, offset, out):
        if self.map is not None or self.file is None:
            if offset + out.size > self.flat.size:
                raise EOFError(f"'{self.path}' ends before element {offset + out.size}")
            out[:] = self.flat[offset:offset + out.size]
            return
        self.file.seek(self.data_offset + offset * self.dtype.itemsize)
        if self.file.readinto(out) != out.nbytes:
            raise EOFError(f"'{self.path}' ends before element {offset + out.size}")

    def read_box(self, start, count, out):
        if self.map is not None or self.file is None:
            if out.size:
                out.reshape(count)[...] = self.map[tuple(slice(s, s + c) for s, c in zip(start, count))]
            return
        # tofile and save: each row of the box (along the last axis) is a
        # run of the file, read into its place in the host's buffer.
        if not out.size:
            return
        rows = out.reshape(-1, count[-1])
        strides = [int(np.prod(self.shape[k + 1:], dtype=np.int64)) for k in range(len(self.shape))]
        for row, index in zip(rows, np.ndindex(*count[:-1])):
            first = sum((s + i) * stride for s, i, stride in zip(start, index, strides)) + start[-1]
            self.read_at(first, row)

    def close(self):
        if self.map is not None:
            self.map = self.flat = None  # unmapped as the last reference goes (no msync)
        if self.file is not None:
            self.file.close()
