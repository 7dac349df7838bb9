"""numpy: ndarray.tofile / numpy.fromfile (the array's bytes, as raw), or a .npy file (np.save's format)

A formatbench plugin in Python (docs/plugin-guide.md, "A plugin in Python").
api tofile: write() hands ndarray.tofile the host's own buffer; read()
returns what numpy.fromfile read, which the bridge copies once into the
host's buffer (reported apart as python_copy_s). api save: a .npy file as
numpy.save writes it, its header by numpy.lib.format (the function
np.save calls) at open, then each chunk by tofile (np.save's own way of
writing a contiguous array's data); read() takes numpy.load's array, loaded
at the first read, and returns its slices. read_at() reads into the host's
buffer in both.
"""
import numpy as np

OPTIONS = [  # (name, type, default, range or choices, help)
    ("api", "choice", "tofile", ["tofile", "save"],
     "tofile: tofile/fromfile, the bytes alone; save: a .npy file (np.save's header), read by np.load"),
]
DTYPES = ["f64", "f32", "i64", "i32", "u8"]
VERSION = np.__version__


class Corrupt(Exception):
    fb_status = "corrupt"


class Plugin:
    def open(self, path, mode, dtype, count, shape, options):
        self.path, self.dtype, self.count, self.position = path, dtype, count, 0
        self.save = options["api"] == "save"
        self.loaded = None
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

    def write(self, array):
        array.tofile(self.file)

    def read(self, out):
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
        self.file.seek(self.data_offset + offset * self.dtype.itemsize)
        if self.file.readinto(out) != out.nbytes:
            raise EOFError(f"'{self.path}' ends before element {offset + out.size}")

    def close(self):
        self.file.close()
