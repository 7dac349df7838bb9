"""h5py: one 1-D dataset of an HDF5 file, as the hdf5 plugin writes it

A formatbench plugin in Python (docs/plugin-guide.md, "Plugins in Python").
The dataset is created at open with the whole count; write() stores each
chunk of the host's buffer at its offset, read() and read_at() read
straight into the host's buffer (Dataset.read_direct).
"""
import h5py
import numpy as np

OPTIONS = [
    # (name, type, default, range or choices, help)
    ("dataset", "string", "/data", None, "path of the dataset in the file"),
    ("chunk", "int", 0, (0, 2**31 - 1), "elements per chunk; 0: contiguous (131072 with a filter)"),
    ("compression", "choice", "none", ["none", "gzip", "lzf"], "filter (makes the dataset chunked)"),
    ("level", "int", 4, (0, 9), "gzip level"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
EXTENSION = "h5"
VERSION = h5py.__version__


# Files whose close failed (a full disk, a file size limit): h5py 3.7
# crashes when such a File object is freed, so they are kept until the
# process ends.
_unclosable = []


class Corrupt(Exception):
    fb_status = "corrupt"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.position = path, 0
        name = options["dataset"]
        if mode == "w":
            chunk = options["chunk"] or (131072 if options["compression"] != "none" else 0)
            kwargs = {}
            if chunk and count > 0:
                kwargs["chunks"] = (min(chunk, count),)
                if options["compression"] == "gzip":
                    kwargs.update(compression="gzip", compression_opts=options["level"])
                elif options["compression"] == "lzf":
                    kwargs["compression"] = "lzf"
            self.file = h5py.File(path, "w")
            try:
                self.data = self.file.create_dataset(name, shape=(count,), dtype=dtype, **kwargs)
            except BaseException:
                self.file.close()
                raise
            return
        try:
            self.file = h5py.File(path, "r")
        except OSError as e:
            raise Corrupt(f"not an HDF5 file: {e}") from None
        try:
            self.data = self.file[name]
            if not isinstance(self.data, h5py.Dataset) or self.data.dtype != dtype or self.data.ndim != 1:
                raise Corrupt(f"'{name}' is not a 1-D dataset of {dtype}")
            if self.data.shape[0] < count:
                raise EOFError(f"dataset '{name}' holds {self.data.shape[0]} elements, not {count}")
        except KeyError:
            self.file.close()
            raise Corrupt(f"no dataset '{name}'") from None
        except BaseException:
            self.file.close()
            raise

    def write(self, array):
        if array.size:
            self.data[self.position:self.position + array.size] = array
        self.position += array.size

    def read(self, out):
        self.read_at(self.position, out)
        self.position += out.size

    def read_at(self, offset, out):
        if offset + out.size > self.data.shape[0]:
            raise EOFError(f"dataset ends before element {offset + out.size}")
        if out.size:
            self.data.read_direct(out, source_sel=np.s_[offset:offset + out.size])

    def close(self):
        try:
            self.file.close()
        except BaseException:
            _unclosable.append(self.file)
            raise
