"""pandas: the values as one Series, through Series.to_hdf / pd.read_hdf (PyTables) or to_pickle / pd.read_pickle

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
The data set's values, flat (a Series has one axis: the shape is not
stored), are one pandas Series named `data` on the default RangeIndex.
api hdf (the default): Series.to_hdf under the key `data` through
PyTables, `format` fixed or table, `complevel` and `complib`, read by
pd.read_hdf. api pickle: Series.to_pickle (protocol 5) with the
`compression` option, read by pd.read_pickle with the same. A Series is
written whole, so write() gathers the host's chunks into an array
allocated at open and the Series is written at close, except where one
write hands the whole array: it is written from a Series over the host's
own buffer, then. The first read loads the Series; each read returns a
slice of its values, which the bridge copies once into the host's buffer
(python_copy_s). pd.read_pickle runs whatever a pickle names: read only
files of your own.
"""
import numexpr
import numpy as np
import pandas as pd
import tables

OPTIONS = [  # (name, type, default, range or choices, help)
    # hdf the default: complib changes the file only with api hdf and a
    # complevel above 0, so that check-plugin's option sweep (one option
    # off its default at a time) sees each option's effect.
    ("api", "choice", "hdf", ["hdf", "pickle"],
     "hdf: Series.to_hdf / pd.read_hdf (PyTables); pickle: Series.to_pickle / pd.read_pickle"),
    # zstd needs the zstandard module, which Debian 12's pandas does not depend on.
    ("compression", "choice", "none", ["none", "gzip", "bz2", "xz"], "to_pickle's compression (api pickle)"),
    ("format", "choice", "fixed", ["fixed", "table"], "to_hdf's format (api hdf)"),
    ("complevel", "int", 0, (0, 9), "to_hdf's compression level, 0: none (api hdf)"),
    ("complib", "choice", "zlib", ["zlib", "lzo", "bzip2", "blosc:lz4", "blosc:zstd"],
     "to_hdf's compressor when complevel > 0 (api hdf)"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
VERSION = pd.__version__

# Thread pools would outlive the calls (a plugin's threads end before its
# calls return): numexpr's (which PyTables needs and pandas imports) starts
# at its import, and set to one thread it joins its workers; Blosc's, in
# PyTables, starts at a compression. One thread each, the caller's.
numexpr.set_num_threads(1)
tables.set_blosc_max_threads(1)


class Corrupt(Exception):
    fb_status = "corrupt"


class WriteFailed(Exception):
    """PyTables reports a write the system refused (a full disk, a file size
    limit) as HDF5ExtError, a RuntimeError without errno."""
    fb_status = "io"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count = path, dtype, count
        self.options = options
        self.hdf = options["api"] == "hdf"
        self.position = 0
        self.values = None  # read: the loaded Series' values
        self.gathered = None  # write: the host's chunks, when they come in several writes
        self.written = mode == "r"  # nothing to write when reading

    def store(self, values):
        series = pd.Series(values, name="data", copy=False)
        o = self.options
        if not self.hdf:
            series.to_pickle(self.path, compression=None if o["compression"] == "none" else o["compression"],
                             protocol=5)
            return
        try:
            series.to_hdf(self.path, key="data", mode="w", format=o["format"], complevel=o["complevel"],
                          complib=o["complib"] if o["complevel"] else None)
        except tables.HDF5ExtError as e:
            raise WriteFailed(f"{e} (PyTables gives no errno: a full disk or a file size limit ends so)") from None

    def write(self, array):
        if self.position == 0 and array.size == self.count and not self.written:
            self.store(array)
            self.written = True
        elif array.size:
            if self.gathered is None:
                self.gathered = np.empty(self.count, dtype=self.dtype)
            self.gathered[self.position:self.position + array.size] = array
        self.position += array.size

    def load(self):
        o = self.options
        try:
            if self.hdf:
                series = pd.read_hdf(self.path, key="data")
            else:
                series = pd.read_pickle(self.path,
                                        compression=None if o["compression"] == "none" else o["compression"])
        except (OSError, EOFError, MemoryError):
            raise
        except Exception as e:
            raise Corrupt(f"pandas cannot read it: {type(e).__name__}: {e}") from None
        if not isinstance(series, pd.Series) or series.dtype != self.dtype:
            raise Corrupt(f"holds {type(series).__name__} of {getattr(series, 'dtype', '?')}, "
                          f"not a Series of {self.dtype}")
        if series.size < self.count:
            raise EOFError(f"the Series holds {series.size} values, not {self.count}")
        if series.size > self.count:
            raise Corrupt(f"the Series holds {series.size} values, not {self.count}")
        return series.to_numpy()

    def read(self, out):
        if self.values is None:
            self.values = self.load()
        got = self.values[self.position:self.position + out.size]
        self.position += out.size
        return got

    def close(self):
        if not self.written:
            self.written = True
            self.store(self.gathered if self.gathered is not None else np.empty(self.count, dtype=self.dtype))
