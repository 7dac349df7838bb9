// Where a case's data comes from: the counter-based generator, or a user's
// file read once through a plugin (`from_file`) and then served from memory.
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
    // Writes elements [first, first + count) into out.
    virtual void fill(std::uint64_t first, std::uint64_t count, void* out) const = 0;
};

// Throws usage_error / plugin_error when a from_file data set cannot be read.
std::unique_ptr<data_source> make_data_source(const dataset_spec& spec, const registry& reg);

} // namespace formatbench
