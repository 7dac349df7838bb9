"""fb_boxes: the boxes of an N-D array that a row-major run of its elements makes up

Not a plugin: a helper of the Python plugins whose library slices N-D
arrays by boxes (fb_h5py, fb_netcdf4, fb_zarr, fb_xarray), which store the
data set's shape and get the host's flat runs (write, read, read_at).
"""
import numpy as np


def boxes(shape, first, end):
    """The boxes of a row-major array of `shape` that the elements [first,
    end) make up, in order: (slices, extents, offset of the box's first
    element from `first`). At most 2 x ndim boxes."""
    ndim = len(shape)
    strides = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(ndim)]
    position = first
    while position < end:
        index = np.unravel_index(position, shape) if ndim > 1 else (position,)
        outer = ndim - 1  # the outermost axis from which the position is aligned
        while outer > 0 and all(index[j] == 0 for j in range(outer, ndim)):
            outer -= 1
        for k in range(outer, ndim):
            rows = min(shape[k] - index[k], (end - position) // strides[k])
            if rows > 0:
                extents = [1] * k + [rows] + list(shape[k + 1:])
                slices = tuple(slice(int(index[j]), int(index[j]) + extents[j]) for j in range(ndim))
                yield slices, extents, position - first
                position += rows * strides[k]
                break
