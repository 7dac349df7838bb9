// Shapes of N-D data sets, shared by the hdf5 and netcdf plugins (the netcdf
// plugin includes this header from here): the grammar of their `chunks`
// option, a shape as text for messages, the default chunk of an N-D array,
// and a flat range of a row-major array as at most 2 * ndim - 1 boxes (a
// read_at or a write of the flat stream on an N-D dataset: HDF5 selects
// their union, netCDF gets one nc_get_vara / nc_put_vara per box).
// Header-only, standard library only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace formatbench::array_shape {

using extents = std::vector<std::uint64_t>;

// "3 x 4 x 5" ("flat" for no axes), for messages.
inline std::string shape_text(const extents& shape) {
    if (shape.empty()) return "flat";
    std::string out;
    for (std::uint64_t e : shape)
        out += (out.empty() ? "" : " x ") + std::to_string(e);
    return out;
}

// The product of the extents (1 for none); false when it does not fit 64
// bits.
inline bool element_count(const extents& shape, std::uint64_t& out) {
    std::uint64_t n = 1;
    for (std::uint64_t e : shape) {
        if (e != 0 && n > UINT64_MAX / e) return false;
        n *= e;
    }
    out = n;
    return true;
}

// ---- The `chunks` option -----------------------------------------------------
// auto | contiguous | a list of chunk extents, one per axis of the data
// set's shape (one for a flat array), comma-separated, each a decimal
// integer from 1 to 2^32 - 1 (HDF5's limit of a chunk's extent), spaces
// allowed around them: "32,64,64", "32, 64, 64", "4096".

enum class chunks_kind { automatic, contiguous, list };

struct chunks_spec {
    chunks_kind kind = chunks_kind::automatic;
    extents sizes; // kind list: the extents as given
};

inline constexpr std::uint64_t max_chunk_extent = 4294967295u;
inline constexpr std::size_t max_axes = 32; // FB_MAX_NDIM

inline constexpr const char* chunks_grammar =
    "auto, contiguous, or chunk extents, one per axis of the data set's shape, comma-separated "
    "(e.g. \"32,64,64\"; one extent for a flat array), each from 1 to 4294967295";

// Parses text; on failure returns false with the reason in why.
inline bool parse_chunks(std::string_view text, chunks_spec& out, std::string& why) {
    auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
            s.remove_suffix(1);
        return s;
    };
    text = trim(text);
    if (text == "auto" || text.empty()) {
        out = {chunks_kind::automatic, {}};
        return true;
    }
    if (text == "contiguous") {
        out = {chunks_kind::contiguous, {}};
        return true;
    }
    chunks_spec s{chunks_kind::list, {}};
    for (std::size_t at = 0;;) {
        const std::size_t comma = text.find(',', at);
        const std::string_view item =
            trim(text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
        std::uint64_t v = 0;
        bool digits = !item.empty();
        for (char c : item) {
            if (c < '0' || c > '9') {
                digits = false;
                break;
            }
            // Saturates past the limit, so a long number is "too large", not wrapped.
            v = std::min<std::uint64_t>(v * 10 + static_cast<unsigned>(c - '0'), max_chunk_extent + 1);
        }
        if (!digits) {
            // append, not "'" + std::string(item): GCC 12 warns falsely (-Wrestrict) on that.
            why = std::string("'").append(item).append("' is not a chunk extent");
            return false;
        }
        if (v == 0) {
            why = "0 is not a chunk extent (each is at least 1)";
            return false;
        }
        if (v > max_chunk_extent) {
            why = std::string(item).append(" is more than a chunk extent may be (4294967295)");
            return false;
        }
        s.sizes.push_back(v);
        if (s.sizes.size() > max_axes) {
            why = "more than 32 extents (a shape has at most 32 axes)";
            return false;
        }
        if (comma == std::string_view::npos) break;
        at = comma + 1;
    }
    out = std::move(s);
    return true;
}

// The extents of a chunk list checked against a shape: one per axis (ndim
// 1 for a flat array of `count` elements, shape empty), each no larger than
// its axis (HDF5 and netCDF refuse a chunk larger than a fixed dimension:
// an extent beyond it is cut to the axis; an axis of 0 keeps the extent).
// A list of another length returns false with the reason in why.
inline bool fit_chunks(const extents& sizes, const extents& shape, std::uint64_t count, extents& out,
                       std::string& why) {
    const extents axes = shape.empty() ? extents{count} : shape;
    if (sizes.size() != axes.size()) {
        why = std::to_string(sizes.size()) + (sizes.size() == 1 ? " extent" : " extents") + " for " +
              (shape.empty() ? std::string("a flat array (1 axis)")
                             : "the shape " + shape_text(shape) + " (" + std::to_string(shape.size()) +
                                   (shape.size() == 1 ? " axis)" : " axes)"));
        return false;
    }
    out.resize(sizes.size());
    for (std::size_t k = 0; k < sizes.size(); ++k)
        out[k] = axes[k] == 0 ? sizes[k] : std::min(sizes[k], axes[k]);
    return true;
}

// The default chunk of about `elements` elements (at least 1) of an array
// of `shape`: whole trailing axes while they fit, then as much of the next
// axis as fits, 1 on the axes before it. A chunk of whole rows keeps a
// flat read's chunks in file order. An axis of 0 counts as 1.
inline extents trailing_chunk(const extents& shape, std::uint64_t elements) {
    extents c(shape.size(), 1);
    std::uint64_t left = std::max<std::uint64_t>(elements, 1);
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::uint64_t axis = std::max<std::uint64_t>(shape[k], 1);
        c[k] = std::max<std::uint64_t>(std::min(axis, left), 1);
        if (c[k] < axis) break;
        left /= axis;
        if (left == 0) break;
    }
    return c;
}

// ---- A flat range as boxes -------------------------------------------------------

// A box of an N-D array: [start[k], start[k] + count[k]) on every axis, whose
// elements are at `position` onwards of the flat range it belongs to.
struct box {
    extents start, count;
    std::uint64_t position = 0;
};

namespace detail {

// The range [a, b) of the sub-array of axes k.. at the fixed indices
// prefix[0..k-1] of the axes before it.
inline void split_range(const extents& shape, const extents& stride, std::size_t k, extents& prefix,
                        std::uint64_t a, std::uint64_t b, std::uint64_t& position, std::vector<box>& out) {
    const std::size_t nd = shape.size();
    // Axis k [first, first + n), the axes after it whole.
    auto emit = [&](std::uint64_t first, std::uint64_t n) {
        box x;
        x.start.assign(nd, 0);
        x.count.assign(nd, 1);
        for (std::size_t j = 0; j < k; ++j)
            x.start[j] = prefix[j];
        x.start[k] = first;
        x.count[k] = n;
        for (std::size_t j = k + 1; j < nd; ++j)
            x.count[j] = shape[j];
        x.position = position;
        position += n * stride[k];
        out.push_back(std::move(x));
    };
    if (k + 1 == nd) {
        emit(a, b - a);
        return;
    }
    const std::uint64_t s = stride[k];
    std::uint64_t ia = a / s;
    const std::uint64_t ra = a % s, ib = b / s, rb = b % s;
    if (ia == ib) { // within one index of axis k
        prefix[k] = ia;
        split_range(shape, stride, k + 1, prefix, ra, rb, position, out);
        return;
    }
    if (ra != 0) { // the head: the end of index ia (one box per axis after k, at most)
        prefix[k] = ia;
        split_range(shape, stride, k + 1, prefix, ra, s, position, out);
        ++ia;
    }
    if (ib > ia) emit(ia, ib - ia); // the whole indices between
    if (rb != 0) {                  // the tail: the start of index ib
        prefix[k] = ib;
        split_range(shape, stride, k + 1, prefix, 0, rb, position, out);
    }
}

} // namespace detail

// The boxes whose union is the flat range [offset, offset + count) of a
// row-major array of `shape` (at least one axis), in flat order, disjoint,
// at most 2 * ndim - 1 of them; none for count 0. The range must lie inside
// the array (the SDK's adapter checks a read_at's).
inline std::vector<box> flat_range_boxes(const extents& shape, std::uint64_t offset, std::uint64_t count) {
    std::vector<box> out;
    if (count == 0 || shape.empty()) return out;
    const std::size_t nd = shape.size();
    extents stride(nd, 1); // elements between neighbours on axis k
    for (std::size_t k = nd - 1; k > 0; --k)
        stride[k - 1] = stride[k] * shape[k];
    extents prefix(nd, 0);
    std::uint64_t position = 0;
    detail::split_range(shape, stride, 0, prefix, offset, offset + count, position, out);
    return out;
}

} // namespace formatbench::array_shape
