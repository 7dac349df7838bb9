"""netCDF4-python: one variable of a netCDF file, of the data set's shape, as the netcdf plugin writes it

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The variable `data` is defined at open on one dimension per axis of the
data set's shape (`n` for a flat array, else `d0`, `d1`...); write() stores
each chunk of the host's buffer, a row-major run of elements, as the few
boxes of the shape it covers. read() and read_at() of one box, and
read_box(), return the slice netCDF4 reads, which the bridge copies once
into the host's buffer (python_copy_s); a run of several boxes is gathered
into the host's buffer by the module.
"""
import netCDF4
import numpy as np

from fb_boxes import boxes

OPTIONS = [
    # (name, type, default, range or choices, help)
    ("format", "choice", "netcdf4", ["netcdf4", "classic", "64bit_offset"], "the file's format"),
    ("variable", "string", "data", None, "name of the variable"),
    ("chunk", "int", 0, (0, 2**31 - 1), "elements per chunk (netcdf4); 0: contiguous, or 131072 with zlib"),
    ("zlib", "int", 0, (0, 9), "deflate level (netcdf4); 0: none"),
]
DTYPES = ["f64", "f32", "i32"]  # the classic formats have no 64-bit integers
EXTENSION = "nc"
VERSION = netCDF4.__version__

_FORMATS = {"netcdf4": "NETCDF4", "classic": "NETCDF3_CLASSIC", "64bit_offset": "NETCDF3_64BIT_OFFSET"}
# Datasets whose close failed are kept until the process ends, as h5py's
# File objects are in fb_h5py.py (freeing them runs the close again).
_unclosable = []


class Corrupt(Exception):
    fb_status = "corrupt"


class WriteFailed(Exception):
    """netCDF4 reports a write the system refused (a full disk, a file
    size limit) as RuntimeError("NetCDF: HDF error"), without errno."""
    fb_status = "io"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.position = path, 0
        name = options["variable"]
        if mode == "w":
            netcdf4 = options["format"] == "netcdf4"
            level = options["zlib"] if netcdf4 else 0
            chunk = options["chunk"] or (131072 if level else 0)
            self.file = netCDF4.Dataset(path, "w", format=_FORMATS[options["format"]])
            try:
                self.shape = tuple(shape)
                dims = ("n",) if len(shape) == 1 else tuple(f"d{k}" for k in range(len(shape)))
                for dim, extent in zip(dims, shape):
                    self.file.createDimension(dim, extent)
                kwargs = {}
                if netcdf4 and chunk and count > 0:
                    if len(shape) == 1:
                        kwargs["chunksizes"] = (min(chunk, count),)
                    kwargs["contiguous"] = False
                    if level:
                        kwargs.update(zlib=True, complevel=level)
                elif netcdf4 and count > 0:  # a dimension of 0 is unlimited: chunked
                    kwargs["contiguous"] = True
                self.data = self.file.createVariable(name, dtype, dims, fill_value=False, **kwargs)
                self.data.set_auto_maskandscale(False)
            except BaseException:
                self.file.close()
                raise
            return
        try:
            self.file = netCDF4.Dataset(path, "r")
        except OSError as e:
            raise Corrupt(f"not a netCDF file: {e}") from None
        try:
            if name not in self.file.variables:
                raise Corrupt(f"no variable '{name}'")
            self.data = self.file.variables[name]
            self.data.set_auto_maskandscale(False)
            if self.data.dtype != dtype:
                raise Corrupt(f"'{name}' is not a variable of {dtype}")
            self.shape = self.data.shape
            if self.data.size < count:
                raise EOFError(f"variable '{name}' holds {self.data.size} elements, not {count}")
            if len(shape) > 1 and tuple(shape) != self.shape:
                raise NotImplementedError(f"variable '{name}' has the shape {self.shape}, not {tuple(shape)}")
        except BaseException:
            self.file.close()
            raise

    def write(self, array):
        try:
            for slices, extents, at in boxes(self.shape, self.position, self.position + array.size):
                self.data[slices] = array[at:at + int(np.prod(extents))].reshape(extents)
        except RuntimeError as e:
            raise WriteFailed(f"{e} (netCDF4 gives no errno: a full disk or a file size limit ends so)") from None
        self.position += array.size

    def read(self, out):
        got = self.read_at(self.position, out)
        self.position += out.size
        return got

    def read_at(self, offset, out):
        if offset + out.size > self.data.size:
            raise EOFError(f"variable ends before element {offset + out.size}")
        runs = list(boxes(self.shape, offset, offset + out.size))
        if len(runs) == 1:
            return self.data[runs[0][0]]
        for slices, extents, at in runs:
            out[at:at + int(np.prod(extents))] = self.data[slices].reshape(-1)
        return None

    def read_box(self, start, count, out):
        return self.data[tuple(slice(s, s + c) for s, c in zip(start, count))] if out.size else None

    def close(self):
        try:
            self.file.close()
        except RuntimeError as e:
            _unclosable.append(self.file)
            raise WriteFailed(f"{e} (netCDF4 gives no errno: a full disk or a file size limit ends so)") from None
        except BaseException:
            _unclosable.append(self.file)
            raise
