// Host-side view of one loaded plugin: its metadata copied out of the C
// descriptor, option validation, and RAII streams that turn the C status
// codes into exceptions with context.
#pragma once

#include "base/dtype.hpp"
#include "base/option_list.hpp"

#include <formatbench/plugin.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace formatbench {

struct option_info {
    std::string name;
    fb_option_type type;
    std::string default_value;
    bool has_range = false;
    double min = 0;
    double max = 0;
    std::vector<std::string> choices;
    std::string help;
};

const char* option_type_name(fb_option_type type) noexcept;
// Human-readable flag names: "lossless", "lossy", "needs-count", ...
std::vector<std::string> capability_names(std::uint64_t flags);

class plugin;

// What ABI 1.2 adds to an open call: the data set's shape (row-major; empty
// for a flat array) and whether to read with O_DIRECT (FB_OPEN_DIRECT).
struct open_layout {
    std::vector<std::uint64_t> shape;
    bool direct = false;
};

// Named figures a stream reported (ABI 1.1 metrics), in the order first seen.
using metric_list = std::vector<std::pair<std::string, double>>;

// An open write stream. close() must be called to finish the file; the
// destructor closes without reporting if it was not.
class write_stream {
public:
    write_stream(const plugin& owner, fb_stream* stream, std::string path,
                 std::unique_ptr<metric_list> metrics);
    write_stream(const write_stream&) = delete;
    write_stream& operator=(const write_stream&) = delete;
    ~write_stream();
    void write(const void* data, std::uint64_t count);
    void close();
    // What the plugin reported for this stream so far (complete after close).
    const metric_list& metrics() const noexcept { return *metrics_; }

private:
    const plugin& owner_;
    fb_stream* stream_;
    std::string path_;
    std::unique_ptr<metric_list> metrics_;
};

class read_stream {
public:
    read_stream(const plugin& owner, fb_stream* stream, std::string path,
                std::unique_ptr<metric_list> metrics);
    read_stream(const read_stream&) = delete;
    read_stream& operator=(const read_stream&) = delete;
    ~read_stream();
    void read(void* data, std::uint64_t count);
    // The zero-copy view, or nullptr when the plugin has no such extension.
    const void* view(std::uint64_t count);
    // Random access (ABI 1.2 extensions; plugin_error when the plugin has
    // none, or the call fails): `count` elements from element `offset`, and
    // a box of the data set's shape (one start and count per axis).
    void read_at(std::uint64_t offset, void* data, std::uint64_t count);
    void read_box(const std::vector<std::uint64_t>& start, const std::vector<std::uint64_t>& count,
                  void* data);
    void close();
    const metric_list& metrics() const noexcept { return *metrics_; }

private:
    const plugin& owner_;
    fb_stream* stream_;
    std::string path_;
    std::unique_ptr<metric_list> metrics_;
    const fb_ext_read_at_v1* at_ = nullptr; // looked up at the first call
    const fb_ext_read_box_v1* box_ = nullptr;
};

class plugin {
public:
    // `library` keeps the shared library loaded as long as the plugin lives.
    plugin(const fb_plugin_descriptor* descriptor, std::filesystem::path file, std::shared_ptr<void> library);

    const std::string& id() const noexcept { return id_; }
    const std::string& version() const noexcept { return version_; }
    const std::string& description() const noexcept { return description_; }
    const std::string& license() const noexcept { return license_; }
    const std::string& extension() const noexcept { return extension_; }
    const std::filesystem::path& file() const noexcept { return file_; }
    unsigned abi_major() const noexcept { return descriptor_->abi_major; }
    unsigned abi_minor() const noexcept { return descriptor_->abi_minor; }
    unsigned dtypes() const noexcept { return descriptor_->dtypes; }
    std::uint64_t flags() const noexcept { return descriptor_->flags; }
    bool supports(dtype d) const noexcept { return (dtypes() & FB_DTYPE_BIT(d)) != 0; }
    bool has(std::uint64_t flag) const noexcept { return (flags() & flag) != 0; }
    const std::vector<option_info>& options() const noexcept { return options_; }
    const fb_plugin_descriptor& descriptor() const noexcept { return *descriptor_; }

    // Throws usage_error naming the plugin and the option (with a "did you
    // mean" for unknown names) when an option does not fit its declaration.
    void check_options(const option_list& given) const;
    // Whether this option set reads back bit-exact for this dtype (ABI 1.1's
    // is_lossless_for when the plugin has it, else is_lossless or the flag).
    bool is_lossless(const option_list& given, dtype d) const;
    // Asks the plugin whether this option set can work here for dtype d
    // (formatbench.check-options/1; nothing to ask without it). Throws
    // usage_error "plugin 'ID' refuses these options for DTYPE: <message>".
    // Call after check_options: the plugin sees declared options only.
    void check_option_set(const option_list& given, dtype d) const;
    // Asks the plugin whether this option set can work for one case: its
    // dtype, count, shape (empty: flat) and how it is read (an
    // fb_read_access) (formatbench.check-case/1; nothing to ask without
    // it). Throws usage_error "plugin 'ID' refuses these options for this
    // case (...): <message>". Call after check_option_set.
    void check_case(const option_list& given, dtype d, std::uint64_t count,
                    const std::vector<std::uint64_t>& shape, fb_read_access access) const;
    // The plugin's work before its first stream in this process
    // (formatbench.prepare/1): called once per case, in the
    // process that runs it, before the first open and outside every timed
    // phase. Returns whether the plugin has the extension (false: nothing
    // was called). Throws plugin_error "plugin 'ID': prepare for DTYPE
    // failed (STATUS): <message>".
    bool prepare(const option_list& given, dtype d) const;
    // Whether the plugin offers formatbench.part/1 (parts of a shared file).
    bool has_parts() const;
    bool has_extension(const char* id) const;
    // Whether the plugin offers formatbench.read-at/1 and read-box/1 (ABI 1.2).
    bool has_read_at() const;
    bool has_read_box() const;
    // The versioned ids of the extensions this host knows that the plugin
    // offers, and the study's `access` patterns it can read.
    std::vector<std::string> extension_ids() const;
    std::vector<std::string> access_patterns() const;

    // Both throw plugin_error with the plugin id, the path and its message.
    std::unique_ptr<write_stream> open_write(const std::string& path, dtype d, std::uint64_t count,
                                             const option_list& options,
                                             const open_layout& layout = {}) const;
    std::unique_ptr<read_stream> open_read(const std::string& path, dtype d, std::uint64_t count,
                                           const option_list& options, const open_layout& layout = {}) const;
    // One part of a shared file (formatbench.part/1): elements [offset,
    // offset + count) of a file of `total`. Throws plugin_error, also when
    // the plugin has no such extension.
    std::unique_ptr<write_stream> open_write_part(const std::string& path, dtype d, std::uint64_t offset,
                                                  std::uint64_t count, std::uint64_t total,
                                                  const option_list& options,
                                                  const open_layout& layout = {}) const;
    std::unique_ptr<read_stream> open_read_part(const std::string& path, dtype d, std::uint64_t offset,
                                                std::uint64_t count, std::uint64_t total,
                                                const option_list& options,
                                                const open_layout& layout = {}) const;

    // Whether the plugin calls MPI itself (formatbench.mpi/1), and the MPI
    // it was compiled against ("Open MPI 4.1.4"; "" without the extension).
    bool has_mpi() const;
    std::string mpi_implementation() const;
    // A stream on the host's communicator (formatbench.mpi/1): `comm` points
    // at an MPI_Comm valid until the stream closes; elements [offset, offset
    // + count) of a file of `total`. Collective over comm. Throws
    // plugin_error, also when the plugin has no such extension.
    std::unique_ptr<write_stream> open_write_mpi(const std::string& path, dtype d, const void* comm,
                                                 std::uint64_t offset, std::uint64_t count,
                                                 std::uint64_t total, const option_list& options,
                                                 const open_layout& layout = {}) const;
    std::unique_ptr<read_stream> open_read_mpi(const std::string& path, dtype d, const void* comm,
                                               std::uint64_t offset, std::uint64_t count, std::uint64_t total,
                                               const option_list& options,
                                               const open_layout& layout = {}) const;

    // Throws plugin_error "plugin 'ID': <what> '<path>' failed (<status>): <message>".
    [[noreturn]] void fail(fb_status status, const char* what, const std::string& path,
                           const char* message) const;

private:
    const fb_plugin_descriptor* descriptor_;
    std::filesystem::path file_;
    std::shared_ptr<void> library_;
    std::string id_, version_, description_, license_, extension_;
    std::vector<fb_option_decl> decls_; // normalised to this host's struct layout
    std::vector<option_info> options_;
};

} // namespace formatbench
