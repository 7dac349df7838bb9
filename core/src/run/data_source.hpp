// Where a case's data comes from: the counter-based generator, or a user's
// file read through a plugin (`from_file`): into memory once when it fits the
// in-memory limit, otherwise streamed from the file chunk by chunk, like
// generated data, whenever the case asks for a slice.
#pragma once

#include "host/registry.hpp"
#include "run/buffer.hpp"
#include "run/data.hpp"

#include <cstdint>
#include <memory>

namespace formatbench {

class data_source {
public:
    virtual ~data_source() = default;
    // Writes elements [first, first + count) into out. A streamed file
    // source is cheapest when slices are asked for in order.
    virtual void fill(std::uint64_t first, std::uint64_t count, void* out) const = 0;
};

// Throws usage_error / plugin_error when a from_file data set cannot be read.
std::unique_ptr<data_source> make_data_source(const dataset_spec& spec, const registry& reg,
                                              std::uint64_t in_memory_bytes = UINT64_MAX);

} // namespace formatbench
