// Access patterns' operations (access.hpp).
#include "study/access.hpp"

#include "base/splitmix.hpp"
#include "base/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace formatbench {

namespace {

constexpr std::uint64_t default_ops = 1000;
// Each operation keeps its range and its latency (24 B) for the whole READ
// phase: 10^8 of them hold 2.4 GB, and take minutes at a microsecond each.
constexpr std::uint64_t most_ops = 100000000;

std::string too_many_ops(std::uint64_t ops) {
    return fmt::format("access_ops {} is more than the {} operations one READ phase may time (each keeps "
                       "its range and its latency, 24 B, until the phase ends: {} B here); give at most {}",
                       ops, most_ops,
                       ops > UINT64_MAX / 24 ? std::string("over 2^64") : std::to_string(ops * 24), most_ops);
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
    return a / b + (a % b != 0);
}

} // namespace

access_check check_access(const run_params& p, const dataset_spec& d) {
    access_check out;
    access_geometry& g = out.geometry;
    g.mode = p.access;
    g.seed = p.access_seed;
    g.axis = p.access_axis;
    g.shape = d.shape;
    if (p.access == access_mode::whole) return out;
    const std::uint64_t esize = dtype_size(d.type);
    const std::string mode = to_string(p.access);
    if (p.access == access_mode::plane) {
        if (d.shape.size() < 2) {
            out.error = fmt::format("access: plane needs a data set with a shape of 2 or more axes "
                                    "(`shape: [nz, ny, nx]`); data set '{}' has {}",
                                    d.name, d.shape.empty() ? "none" : shape_text(d.shape));
            return out;
        }
        if (p.access_axis >= d.shape.size()) {
            out.error = fmt::format("access_axis {} is not an axis of shape {} (axes 0 to {})", p.access_axis,
                                    shape_text(d.shape), d.shape.size() - 1);
            return out;
        }
        g.ops = p.access_ops ? p.access_ops : std::min(default_ops, d.shape[p.access_axis]);
        if (g.ops > most_ops) out.error = too_many_ops(g.ops);
        return out;
    }
    g.block = p.access_block / esize;
    if (p.access_block == 0) {
        out.error = fmt::format("access_block whole would read the whole data set in one operation: use "
                                "access: whole for that, or give access: {} a block size such as 4KiB",
                                mode);
        return out;
    }
    if (g.block == 0) {
        out.error = fmt::format("access_block {} B is smaller than one {} element ({} B)", p.access_block,
                                dtype_name(d.type), esize);
        return out;
    }
    if (g.block > d.count) {
        out.error = fmt::format("access_block {} B is more than data set '{}' holds ({} B)", p.access_block,
                                d.name, d.count * esize);
        return out;
    }
    switch (p.access) {
    case access_mode::sequential: {
        const std::uint64_t blocks = ceil_div(d.count, g.block);
        g.ops = p.access_ops ? p.access_ops : blocks;
        if (g.ops > blocks)
            out.error = fmt::format("access_ops {} is more than the {} blocks of {} B in data set '{}' "
                                    "(sequential reads each block once)",
                                    g.ops, blocks, g.block * esize, d.name);
        break;
    }
    case access_mode::random: g.ops = p.access_ops ? p.access_ops : default_ops; break;
    case access_mode::strided: {
        g.stride = p.access_stride / esize;
        // Rounded, the blocks would start elsewhere than the study says.
        if (p.access_stride % esize != 0) {
            out.error = fmt::format("access_stride {} B is not a whole number of {} elements ({} B each): "
                                    "give a multiple of {} B, such as {} B or {} B",
                                    p.access_stride, dtype_name(d.type), esize, esize,
                                    p.access_stride / esize * esize, (p.access_stride / esize + 1) * esize);
            break;
        }
        if (g.stride == 0) {
            out.error =
                fmt::format("access: strided needs access_stride, the bytes from one block's start to "
                            "the next's (at least one {} element)",
                            dtype_name(d.type));
            break;
        }
        const std::uint64_t fit = (d.count - g.block) / g.stride + 1; // blocks that end inside the data
        g.ops = p.access_ops ? p.access_ops : std::min(default_ops, fit);
        if (g.ops > fit)
            out.error = fmt::format("access_ops {} blocks of {} B every {} B do not fit in data set '{}' "
                                    "({} B): at most {}",
                                    g.ops, g.block * esize, g.stride * esize, d.name, d.count * esize, fit);
        break;
    }
    default: break;
    }
    if (out.error.empty() && g.ops > most_ops) out.error = too_many_ops(g.ops);
    return out;
}

std::vector<access_range> access_ranges(const access_geometry& g, std::uint64_t count) {
    std::vector<access_range> out;
    if (g.block == 0) return out;
    out.reserve(g.ops);
    const std::uint64_t whole_blocks = count / g.block;
    for (std::uint64_t k = 0; k < g.ops; ++k) {
        std::uint64_t offset = 0;
        switch (g.mode) {
        case access_mode::sequential: offset = k * g.block; break;
        case access_mode::random: offset = mul_high(splitmix64(g.seed, k), whole_blocks) * g.block; break;
        case access_mode::strided: offset = k * g.stride; break;
        default: return {};
        }
        out.push_back({offset, std::min(g.block, count - offset)});
    }
    return out;
}

std::vector<std::uint64_t> access_planes(const access_geometry& g) {
    std::vector<std::uint64_t> out;
    if (g.mode != access_mode::plane || g.axis >= g.shape.size()) return out;
    out.reserve(g.ops);
    for (std::uint64_t k = 0; k < g.ops; ++k)
        out.push_back(mul_high(splitmix64(g.seed, k), g.shape[g.axis]));
    return out;
}

} // namespace formatbench
