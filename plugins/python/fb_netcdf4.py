"""netCDF4-python: one 1-D variable of a netCDF file, as the netcdf plugin writes it

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The variable `data` on the dimension `n` is defined at open with the whole
count; write() stores each chunk of the host's buffer at its offset; read()
and read_at() return the slice netCDF4 reads, which the bridge copies once
into the host's buffer (python_copy_s).
"""
import netCDF4
import numpy as np

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
                self.file.createDimension("n", count)
                kwargs = {}
                if netcdf4 and chunk and count > 0:
                    kwargs.update(chunksizes=(min(chunk, count),), contiguous=False)
                    if level:
                        kwargs.update(zlib=True, complevel=level)
                elif netcdf4 and count > 0:  # a dimension of 0 is unlimited: chunked
                    kwargs["contiguous"] = True
                self.data = self.file.createVariable(name, dtype, ("n",), fill_value=False, **kwargs)
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
            if self.data.dtype != dtype or self.data.ndim != 1:
                raise Corrupt(f"'{name}' is not a 1-D variable of {dtype}")
            if self.data.shape[0] < count:
                raise EOFError(f"variable '{name}' holds {self.data.shape[0]} elements, not {count}")
        except BaseException:
            self.file.close()
            raise

    def write(self, array):
        if array.size:
            try:
                self.data[self.position:self.position + array.size] = array
            except RuntimeError as e:
                raise WriteFailed(f"{e} (netCDF4 gives no errno: a full disk or a file size limit ends so)") from None
        self.position += array.size

    def read(self, out):
        got = self.read_at(self.position, out)
        self.position += out.size
        return got

    def read_at(self, offset, out):
        if offset + out.size > self.data.shape[0]:
            raise EOFError(f"variable ends before element {offset + out.size}")
        return self.data[offset:offset + out.size] if out.size else None

    def close(self):
        try:
            self.file.close()
        except RuntimeError as e:
            _unclosable.append(self.file)
            raise WriteFailed(f"{e} (netCDF4 gives no errno: a full disk or a file size limit ends so)") from None
        except BaseException:
            _unclosable.append(self.file)
            raise
