"""xarray: one variable `data` of the data set's shape in an xarray Dataset, through to_netcdf (netCDF4) or to_zarr, in a folder

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The Dataset holds one variable `data` on one dimension per axis of the
data set's shape (`n` for a flat array, else `d0`, `d1`...), no fill value
(read back with mask_and_scale off: the bytes as they were).
api netcdf: Dataset.to_netcdf with engine netcdf4 (format NETCDF4, the
variable contiguous), to the file `data.nc` inside the folder at the path;
api zarr: Dataset.to_zarr, the folder at the path being the zarr store
(zarr 2, consolidated metadata, no compressor, chunks of whole rows of
about `chunk` elements, as py-zarr's). The folder: a module declares one
kind of output for all its options, and a zarr store is a folder; the
netCDF file is the folder's only entry.

A Dataset is written whole, so write() gathers the host's chunks into an
array allocated at open and the Dataset is written at close, except where
one write hands the whole array: it is written from a Dataset over the
host's own buffer, then. Reads open the Dataset lazily (xr.open_dataset,
no cache, no dask): read(), read_at() and read_box() (planes) index the
variable (isel), which reads that part only; a run of one box returns its
values, copied once by the bridge into the host's buffer
(python_copy_s), a run of several boxes is gathered into the host's
buffer by the module.
"""
import os
import shutil

import numcodecs
import numpy as np
import xarray as xr

from fb_boxes import boxes

OPTIONS = [  # (name, type, default, range or choices, help)
    ("api", "choice", "netcdf", ["netcdf", "zarr"],
     "netcdf: to_netcdf (engine netcdf4) into data.nc in the folder; zarr: to_zarr, the folder a zarr store"),
    ("chunk", "int", 1048576, (4096, 2**31 - 1),
     "elements per zarr chunk (whole rows of an N-D shape, at least one; api zarr)"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
DIRECTORY = True
# Debian's xarray says its version is 999 (its metadata is built without
# the version control it takes the number from).
VERSION = "2023.01.0" if xr.__version__ == "999" else xr.__version__

NETCDF_FILE = "data.nc"

# Thread pools would outlive the calls (a plugin's threads end before its
# calls return): numexpr's, which pandas (xarray's) imports where it is
# installed, starts at its import, and set to one thread it joins its
# workers; numcodecs' Blosc's starts at a compression. One thread each, the
# caller's.
try:
    import numexpr
    numexpr.set_num_threads(1)
except ImportError:
    pass
numcodecs.blosc.use_threads = False
numcodecs.blosc.set_nthreads(1)


class Corrupt(Exception):
    fb_status = "corrupt"


class WriteFailed(Exception):
    """netCDF4 reports a write the system refused (a full disk, a file size
    limit) as RuntimeError("NetCDF: HDF error"), without errno."""
    fb_status = "io"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count, self.shape = path, dtype, count, tuple(shape)
        self.zarr = options["api"] == "zarr"
        self.chunk = options["chunk"]
        self.position = 0
        self.dataset = None
        self.gathered = None  # write: the host's chunks, when they come in several writes
        self.written = mode == "r"  # nothing to write when reading
        self.dims = ("n",) if len(self.shape) == 1 else tuple(f"d{k}" for k in range(len(self.shape)))
        if mode == "w":
            # The plugin's path is its folder: what an earlier write left
            # there goes (to_zarr's mode "w" clears a store likewise).
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            os.mkdir(path)
            return
        if not os.path.isdir(path):
            raise FileNotFoundError(f"'{path}' is not a folder")
        try:
            if self.zarr:
                self.dataset = xr.open_dataset(path, engine="zarr", chunks=None, mask_and_scale=False,
                                               decode_times=False, consolidated=True)
            else:
                self.dataset = xr.open_dataset(os.path.join(path, NETCDF_FILE), engine="netcdf4",
                                               mask_and_scale=False, decode_times=False, cache=False)
        except FileNotFoundError:
            raise
        except Exception as e:
            raise Corrupt(f"xarray cannot open it: {type(e).__name__}: {e}") from None
        try:
            if "data" not in self.dataset.data_vars:
                raise Corrupt("no variable 'data'")
            self.data = self.dataset["data"]
            if self.data.dtype != dtype:
                raise Corrupt(f"'data' is of {self.data.dtype}, not {dtype}")
            if self.data.size < count:
                raise EOFError(f"'data' holds {self.data.size} elements, not {count}")
            if len(self.shape) > 1 and self.data.shape != self.shape:
                raise NotImplementedError(f"'data' has the shape {self.data.shape}, not {self.shape}")
            self.shape = self.data.shape
        except BaseException:
            self.dataset.close()
            raise

    def store(self, values):
        dataset = xr.Dataset({"data": (self.dims, values.reshape(self.shape))})
        if self.zarr:
            inner = int(np.prod(self.shape[1:], dtype=np.int64))
            rows = max(1, min(self.chunk // max(1, inner), self.shape[0]))
            encoding = {"compressor": None, "chunks": (rows,) + self.shape[1:]}
            dataset.to_zarr(self.path, mode="w", encoding={"data": encoding})
            return
        encoding = {"_FillValue": None}
        if self.count:  # a dimension of 0 is unlimited, which is chunked
            encoding["contiguous"] = True
        try:
            dataset.to_netcdf(os.path.join(self.path, NETCDF_FILE), engine="netcdf4", format="NETCDF4",
                              encoding={"data": encoding})
        except RuntimeError as e:
            raise WriteFailed(f"{e} (netCDF4 gives no errno: a full disk or a file size limit ends so)") from None

    def write(self, array):
        if self.position == 0 and array.size == self.count and not self.written:
            self.store(array)
            self.written = True
        elif array.size:
            if self.gathered is None:
                self.gathered = np.empty(self.count, dtype=self.dtype)
            self.gathered[self.position:self.position + array.size] = array
        self.position += array.size

    def read(self, out):
        got = self.read_at(self.position, out)
        self.position += out.size
        return got

    def read_at(self, offset, out):
        if offset + out.size > self.data.size:
            raise EOFError(f"'data' ends before element {offset + out.size}")
        if not out.size:
            return None
        runs = list(boxes(self.shape, offset, offset + out.size))
        if len(runs) == 1:
            return self.data.isel(dict(zip(self.dims, runs[0][0]))).values
        for slices, extents, at in runs:
            out[at:at + int(np.prod(extents))] = self.data.isel(dict(zip(self.dims, slices))).values.reshape(-1)
        return None

    def read_box(self, start, count, out):
        if not out.size:
            return None
        return self.data.isel({d: slice(s, s + c) for d, s, c in zip(self.dims, start, count)}).values

    def close(self):
        if self.dataset is not None:
            self.dataset.close()
        if not self.written:
            self.written = True
            self.store(self.gathered if self.gathered is not None else np.empty(self.count, dtype=self.dtype))
