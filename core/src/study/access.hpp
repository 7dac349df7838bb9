// The operations of a READ phase's access pattern (docs/config.md "Access
// patterns"), computed from a case alone: which elements each operation
// reads, for every plugin and every repetition alike. Pure arithmetic, so
// plan can check a pattern and tests can pin its offsets.
#pragma once

#include "study/study.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace formatbench {

// One read-at operation: `count` elements from element `offset`.
struct access_range {
    std::uint64_t offset = 0;
    std::uint64_t count = 0;
};

// The geometry of a case's pattern, in elements.
struct access_geometry {
    access_mode mode = access_mode::whole;
    std::uint64_t block = 0;  // elements per operation (read-at patterns)
    std::uint64_t stride = 0; // strided: elements from one block's start to the next's
    std::uint64_t ops = 0;    // operations per READ phase
    std::uint64_t seed = 1;
    unsigned axis = 0;                // plane
    std::vector<std::uint64_t> shape; // plane: the data set's
};

// The geometry of case c (block and stride rounded down to whole elements,
// the default number of operations filled in), or the reason the case's
// pattern cannot run on its data set ("access_block 4 B is smaller than one
// f64 element"), naming the key to change.
struct access_check {
    access_geometry geometry;
    std::string error; // "" when the pattern can run
};
access_check check_access(const run_params& p, const dataset_spec& d);

// The read-at operations of a sequential, random or strided pattern, in the
// order they run:
//   sequential: blocks from element 0 on, front to back, `ops` of them (by
//     default every block, the last one shorter when the count is not a
//     multiple of the block);
//   random: operation k reads the block at index
//     floor(splitmix64(seed, k) x nblocks / 2^64) of the nblocks =
//     floor(count / block) whole blocks, where splitmix64(seed, k) is
//     SplitMix64's (k + 1)-th output from state `seed` (Steele, Lea and
//     Flood 2014; the same constants as java.util.SplittableRandom): the
//     offsets depend only on seed and k, so every plugin, repetition and
//     rank reads the same ones;
//   strided: operation k reads `block` elements from element k x stride.
std::vector<access_range> access_ranges(const access_geometry& g, std::uint64_t count);

// The planes of a plane pattern: operation k reads the plane at index
// floor(splitmix64(seed, k) x shape[axis] / 2^64) along `axis` (every
// other axis whole).
std::vector<std::uint64_t> access_planes(const access_geometry& g);

} // namespace formatbench
