"""h5py: one dataset of an HDF5 file, of the data set's shape, as the hdf5 plugin writes it

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The dataset is created at open with the data set's shape (1-D for a flat
array); write() stores each chunk of the host's buffer, a row-major run of
elements, as the few boxes of the shape it covers; read() and read_at()
read such runs, and read_box() a box, straight into the host's buffer
(Dataset.read_direct).
Filters: gzip and lzf (h5py's own), and through hdf5plugin (Debian's
python3-hdf5plugin, which registers its filters with HDF5 when imported)
lz4 and blosc with zstd and no shuffle, the C hdf5 plugin's `filter:
blosc, blosc_codec: zstd, blosc_shuffle: none`. (hdf5plugin's own Zstd
filter, 32015, is not in Debian 12's build: h5py refuses it as unknown.)
"""
import h5py
import numpy as np

try:
    import hdf5plugin  # registers LZ4 and Blosc with HDF5, for writing and reading
except ImportError:
    hdf5plugin = None

from fb_boxes import boxes

OPTIONS = [
    # (name, type, default, range or choices, help)
    ("dataset", "string", "/data", None, "path of the dataset in the file"),
    ("chunk", "int", 0, (0, 2**31 - 1),
     "elements per chunk; 0: contiguous (131072 with a filter); N-D: whole rows (slabs along axis 0), at least one"),
    ("compression", "choice", "none", ["none", "gzip", "lzf", "lz4", "blosc-zstd"],
     "filter (makes the dataset chunked); lz4 and blosc-zstd through hdf5plugin"),
    ("level", "int", 4, (0, 9), "gzip and blosc-zstd level"),
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


class Unsupported(Exception):
    fb_status = "unsupported"


def hdf5plugin_filter(name, level):
    """create_dataset's arguments for one of hdf5plugin's filters."""
    if hdf5plugin is None:
        raise Unsupported(f"compression '{name}' needs hdf5plugin: apt-get install python3-hdf5plugin")
    if name == "lz4":
        return dict(hdf5plugin.LZ4())
    return dict(hdf5plugin.Blosc(cname="zstd", clevel=level, shuffle=hdf5plugin.Blosc.NOSHUFFLE))


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.position = path, 0
        name = options["dataset"]
        if mode == "w":
            chunk = options["chunk"] or (131072 if options["compression"] != "none" else 0)
            kwargs = {}
            if chunk and count > 0:
                if len(shape) == 1:
                    kwargs["chunks"] = (min(chunk, count),)
                else:  # slabs of whole rows, as py-zarr's and the C hdf5 plugin's "R,N,M" chunks
                    inner = int(np.prod(shape[1:], dtype=np.int64))
                    kwargs["chunks"] = (max(1, min(chunk // max(1, inner), shape[0])),) + tuple(shape[1:])
                if options["compression"] == "gzip":
                    kwargs.update(compression="gzip", compression_opts=options["level"])
                elif options["compression"] == "lzf":
                    kwargs["compression"] = "lzf"
                elif options["compression"] != "none":
                    kwargs.update(hdf5plugin_filter(options["compression"], options["level"]))
            self.file = h5py.File(path, "w")
            try:
                self.data = self.file.create_dataset(name, shape=shape, dtype=dtype, **kwargs)
            except BaseException:
                self.file.close()
                raise
            self.shape = tuple(shape)
            return
        try:
            self.file = h5py.File(path, "r")
        except OSError as e:
            raise Corrupt(f"not an HDF5 file: {e}") from None
        try:
            self.data = self.file[name]
            if not isinstance(self.data, h5py.Dataset) or self.data.dtype != dtype:
                raise Corrupt(f"'{name}' is not a dataset of {dtype}")
            self.shape = self.data.shape
            if self.data.size < count:
                raise EOFError(f"dataset '{name}' holds {self.data.size} elements, not {count}")
            if len(shape) > 1 and tuple(shape) != self.shape:
                raise NotImplementedError(f"dataset '{name}' has the shape {self.shape}, not {tuple(shape)}")
        except KeyError:
            self.file.close()
            raise Corrupt(f"no dataset '{name}'") from None
        except BaseException:
            self.file.close()
            raise

    def write(self, array):
        for slices, extents, at in boxes(self.shape, self.position, self.position + array.size):
            self.data[slices] = array[at:at + int(np.prod(extents))].reshape(extents)
        self.position += array.size

    def read(self, out):
        self.read_at(self.position, out)
        self.position += out.size

    def read_at(self, offset, out):
        if offset + out.size > self.data.size:
            raise EOFError(f"dataset ends before element {offset + out.size}")
        for slices, extents, at in boxes(self.shape, offset, offset + out.size):
            self.data.read_direct(out[at:at + int(np.prod(extents))].reshape(extents), source_sel=slices)

    def read_box(self, start, count, out):
        if out.size:
            self.data.read_direct(out.reshape(count),
                                  source_sel=tuple(slice(s, s + c) for s, c in zip(start, count)))

    def close(self):
        try:
            self.file.close()
        except BaseException:
            _unclosable.append(self.file)
            raise
