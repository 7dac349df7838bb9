// Host-side plugin wrapper: copies metadata out of the descriptor, validates
// options with the SDK's own rules, and wraps the streaming calls.
#include "host/plugin_handle.hpp"

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "base/text.hpp"

#include <formatbench/plugin.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace formatbench {
namespace {

// Room for a plugin's message; FB_ERROR_BUFFER_MIN is the contract's floor.
constexpr std::size_t error_buffer_size = 1024;

// Longest descriptor string kept (an id, a help line): the registry has
// checked each is terminated within it.
constexpr std::size_t max_descriptor_text = 4096;

// A descriptor string as the host keeps it: bounded and escaped.
std::string text_or_empty(const char* s) {
    return s ? escape_text(bounded_string(s, max_descriptor_text)) : std::string();
}

// The C call table as a vector of name=value views for the plugin.
std::vector<fb_option> to_c_options(const option_list& options) {
    std::vector<fb_option> out;
    out.reserve(options.size());
    for (const auto& [name, value] : options)
        out.push_back({name.c_str(), value.c_str()});
    return out;
}

const char* status_name(fb_status status) {
    switch (status) {
    case FB_OK: return "ok";
    case FB_E_INVALID_OPTION: return "invalid option";
    case FB_E_UNSUPPORTED: return "unsupported";
    case FB_E_IO: return "I/O error";
    case FB_E_CORRUPT: return "corrupt input";
    case FB_E_TRUNCATED: return "truncated input";
    case FB_E_NO_MEMORY: return "out of memory";
    case FB_E_STATE: return "call out of order";
    case FB_E_INTERNAL: return "internal error";
    }
    return "unknown status";
}

} // namespace

const char* option_type_name(fb_option_type type) noexcept {
    switch (type) {
    case FB_OPT_BOOL: return "bool";
    case FB_OPT_INT: return "int";
    case FB_OPT_FLOAT: return "float";
    case FB_OPT_STRING: return "string";
    case FB_OPT_CHOICE: return "choice";
    case FB_OPT_SIZE: return "size";
    }
    return "?";
}

std::vector<std::string> capability_names(std::uint64_t flags) {
    static const std::pair<std::uint64_t, const char*> names[] = {
        {FB_CAP_LOSSLESS, "lossless"},       {FB_CAP_LOSSY, "lossy"},
        {FB_CAP_NEEDS_COUNT, "needs-count"}, {FB_CAP_DIRECTORY_OUTPUT, "directory"},
        {FB_CAP_NO_FILE, "no-file"},         {FB_CAP_SELF_DESCRIBING, "self-describing"},
        {FB_CAP_DIRECT_IO, "direct-io"},
    };
    std::vector<std::string> out;
    for (const auto& [bit, name] : names)
        if (flags & bit) out.emplace_back(name);
    return out;
}

plugin::plugin(const fb_plugin_descriptor* descriptor, std::filesystem::path file,
               std::shared_ptr<void> library)
    : descriptor_(descriptor), file_(std::move(file)), library_(std::move(library)),
      id_(text_or_empty(descriptor->id)), version_(text_or_empty(descriptor->version)),
      description_(text_or_empty(descriptor->description)), license_(text_or_empty(descriptor->license)),
      extension_(text_or_empty(descriptor->extension)) {
    // Walk the declarations with the plugin's stride; copy only the fields
    // both sides know, so another minor's layout reads correctly.
    const auto* base = reinterpret_cast<const unsigned char*>(descriptor->options);
    std::size_t stride = descriptor->option_decl_size;
    for (std::uint32_t i = 0; base && i < descriptor->option_count; ++i) {
        fb_option_decl d{};
        std::memcpy(&d, base + i * stride, std::min(stride, sizeof d));
        decls_.push_back(d);
        option_info info;
        info.name = text_or_empty(d.name);
        info.type = d.type;
        info.default_value = text_or_empty(d.default_value);
        info.has_range = d.has_range != 0;
        info.min = d.min;
        info.max = d.max;
        for (const char* const* c = d.choices; c && *c; ++c)
            info.choices.emplace_back(*c);
        info.help = text_or_empty(d.help);
        options_.push_back(std::move(info));
    }
}

void plugin::check_options(const option_list& given) const {
    std::vector<std::string> names;
    for (const auto& o : options_)
        names.push_back(o.name);
    for (const auto& [name, value] : given) {
        auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
            throw usage_error(fmt::format("plugin '{}' has no option '{}'{}; its options are: {}", id_, name,
                                          did_you_mean(name, names), names.empty() ? "(none)" : join(names)));
        }
        try {
            sdk::options::check(decls_[static_cast<std::size_t>(it - names.begin())], value);
        } catch (const sdk::error& e) {
            throw usage_error(fmt::format("plugin '{}': {}", id_, e.what()));
        }
    }
}

bool plugin::is_lossless(const option_list& given, dtype d) const {
    // is_lossless_for exists since ABI 1.1: only a descriptor that large has it.
    if (descriptor_->struct_size >= FB_DESCRIPTOR_SIZE_1_1 && descriptor_->is_lossless_for) {
        auto c = to_c_options(given);
        return descriptor_->is_lossless_for(d, c.data(), c.size()) != 0;
    }
    if (descriptor_->is_lossless) {
        auto c = to_c_options(given);
        return descriptor_->is_lossless(c.data(), c.size()) != 0;
    }
    return has(FB_CAP_LOSSLESS);
}

void plugin::check_option_set(const option_list& given, dtype d) const {
    if (!descriptor_->get_extension) return;
    const auto* ext =
        static_cast<const fb_ext_check_options_v1*>(descriptor_->get_extension(FB_EXT_CHECK_OPTIONS_V1));
    if (!ext || ext->struct_size < FB_EXT_CHECK_OPTIONS_V1_SIZE || !ext->check_options) return;
    auto c = to_c_options(given);
    char err[error_buffer_size] = "";
    fb_status st = ext->check_options(d, c.data(), c.size(), err, sizeof err);
    if (st == FB_OK) return;
    throw usage_error(
        fmt::format("plugin '{}' refuses these options for {} ({}): {}", id_, dtype_name(d), status_name(st),
                    *err ? escape_text(bounded_string(err, error_buffer_size)) : std::string("no message")));
}

void plugin::check_case(const option_list& given, dtype d, std::uint64_t count,
                        const std::vector<std::uint64_t>& shape, fb_read_access access) const {
    if (!descriptor_->get_extension) return;
    const auto* ext =
        static_cast<const fb_ext_check_case_v1*>(descriptor_->get_extension(FB_EXT_CHECK_CASE_V1));
    if (!ext || ext->struct_size < FB_EXT_CHECK_CASE_V1_SIZE || !ext->check_case) return;
    auto c = to_c_options(given);
    const fb_case_info info{sizeof(fb_case_info),
                            d,
                            count,
                            shape.empty() ? nullptr : shape.data(),
                            static_cast<std::uint32_t>(shape.size()),
                            access,
                            0};
    char err[error_buffer_size] = "";
    fb_status st = ext->check_case(&info, c.data(), c.size(), err, sizeof err);
    if (st == FB_OK) return;
    static const char* const reads[] = {"read whole", "read at offsets", "read by boxes"};
    throw usage_error(
        fmt::format("plugin '{}' refuses these options for this case ({}, {} elements{}, {}) ({}): {}", id_,
                    dtype_name(d), count,
                    shape.empty() ? std::string() : ", shape " + fmt::format("{}", fmt::join(shape, "x")),
                    access <= FB_READ_BOX ? reads[access] : "read", status_name(st),
                    *err ? escape_text(bounded_string(err, error_buffer_size)) : std::string("no message")));
}

bool plugin::prepare(const option_list& given, dtype d) const {
    if (!descriptor_->get_extension) return false;
    const auto* ext = static_cast<const fb_ext_prepare_v1*>(descriptor_->get_extension(FB_EXT_PREPARE_V1));
    if (!ext || ext->struct_size < FB_EXT_PREPARE_V1_SIZE || !ext->prepare) return false;
    auto c = to_c_options(given);
    char err[error_buffer_size] = "";
    const fb_status st = ext->prepare(d, c.data(), c.size(), err, sizeof err);
    if (st != FB_OK)
        throw plugin_error(id_, st,
                           fmt::format("plugin '{}': prepare for {} failed ({}): {}", id_, dtype_name(d),
                                       status_name(st),
                                       *err ? escape_text(bounded_string(err, error_buffer_size))
                                            : std::string("no message")));
    return true;
}

bool plugin::has_extension(const char* id) const {
    return descriptor_->get_extension && descriptor_->get_extension(id) != nullptr;
}

void plugin::fail(fb_status status, const char* what, const std::string& path, const char* message) const {
    throw plugin_error(
        id_, status,
        fmt::format("plugin '{}': {} '{}' failed ({}): {}", id_, what, path, status_name(status),
                    message && *message ? escape_text(bounded_string(message, error_buffer_size))
                                        : std::string("no message")));
}

namespace {

// The metric sink handed to plugins (fb_open_args.metric): a name of
// [a-z0-9_]+ (at most 64 bytes) and a finite value, else ignored.
extern "C" void collect_metric(void* sink, const char* name, double value) {
    if (!sink || !name || !std::isfinite(value)) return;
    const std::size_t n = ::strnlen(name, 65);
    if (n == 0 || n > 64) return;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return;
    }
    auto& list = *static_cast<metric_list*>(sink);
    for (auto& [k, v] : list)
        if (k.size() == n && k.compare(0, n, name) == 0) {
            v = value;
            return;
        }
    if (list.size() < 64) list.emplace_back(std::string(name, n), value);
}

fb_open_args open_args(dtype d, const std::string& path, std::uint64_t count, const std::vector<fb_option>& c,
                       metric_list* metrics, const open_layout& layout) {
    fb_open_args a{};
    a.struct_size = sizeof(fb_open_args);
    a.dtype = d;
    a.path = path.c_str();
    a.count = count;
    a.options = c.data();
    a.option_count = c.size();
    a.metric = &collect_metric;
    a.metric_sink = metrics;
    a.ndim = static_cast<std::uint32_t>(layout.shape.size());
    a.shape = layout.shape.empty() ? nullptr : layout.shape.data();
    a.open_flags = layout.direct ? FB_OPEN_DIRECT : 0u;
    return a;
}

template <class Ext>
const Ext* extension_of(const fb_plugin_descriptor& d, const char* id, std::uint32_t size) {
    if (!d.get_extension) return nullptr;
    const auto* ext = static_cast<const Ext*>(d.get_extension(id));
    return ext && ext->struct_size >= size ? ext : nullptr;
}

const fb_ext_read_at_v1* read_at_extension(const fb_plugin_descriptor& d) {
    const auto* ext = extension_of<fb_ext_read_at_v1>(d, FB_EXT_READ_AT_V1, FB_EXT_READ_AT_V1_SIZE);
    return ext && ext->read_at ? ext : nullptr;
}

const fb_ext_read_box_v1* read_box_extension(const fb_plugin_descriptor& d) {
    const auto* ext = extension_of<fb_ext_read_box_v1>(d, FB_EXT_READ_BOX_V1, FB_EXT_READ_BOX_V1_SIZE);
    return ext && ext->read_box ? ext : nullptr;
}

const fb_ext_part_v1* part_extension(const fb_plugin_descriptor& d) {
    if (!d.get_extension) return nullptr;
    const auto* ext = static_cast<const fb_ext_part_v1*>(d.get_extension(FB_EXT_PART_V1));
    if (!ext || ext->struct_size < FB_EXT_PART_V1_SIZE || !ext->open_write_part || !ext->open_read_part)
        return nullptr;
    return ext;
}

// The part extension, or a plugin_error that the plugin has none.
const fb_ext_part_v1& part_extension_of(const plugin& p, const fb_plugin_descriptor& d,
                                        const std::string& path) {
    const fb_ext_part_v1* ext = part_extension(d);
    if (!ext)
        p.fail(FB_E_UNSUPPORTED, "open a part of", path, "the plugin has no " FB_EXT_PART_V1 " extension");
    return *ext;
}

const fb_ext_mpi_v1* mpi_extension(const fb_plugin_descriptor& d) {
    const auto* ext = extension_of<fb_ext_mpi_v1>(d, FB_EXT_MPI_V1, FB_EXT_MPI_V1_SIZE);
    return ext && ext->open_write && ext->open_read && ext->implementation ? ext : nullptr;
}

// The MPI extension, or a plugin_error that the plugin has none.
const fb_ext_mpi_v1& mpi_extension_of(const plugin& p, const fb_plugin_descriptor& d,
                                      const std::string& path) {
    const fb_ext_mpi_v1* ext = mpi_extension(d);
    if (!ext)
        p.fail(FB_E_UNSUPPORTED, "open on a communicator", path,
               "the plugin has no " FB_EXT_MPI_V1 " extension");
    return *ext;
}

// Opens a stream through `call` (the descriptor's open_write or open_read, or
// the part extension's) and wraps it in Stream; `what` names the action in
// the plugin_error of a failed open, and of a success without a stream.
template <class Stream, class Call>
std::unique_ptr<Stream> open_stream(const plugin& p, const char* what, const std::string& path, dtype d,
                                    std::uint64_t count, const option_list& options,
                                    const open_layout& layout, Call call) {
    auto c = to_c_options(options);
    auto metrics = std::make_unique<metric_list>();
    fb_open_args args = open_args(d, path, count, c, metrics.get(), layout);
    fb_stream* stream = nullptr;
    char err[error_buffer_size] = "";
    fb_status st = call(&args, &stream, err, sizeof err);
    if (st != FB_OK) p.fail(st, what, path, err);
    if (!stream) p.fail(FB_E_INTERNAL, what, path, "returned success without a stream");
    return std::make_unique<Stream>(p, stream, path, std::move(metrics));
}

} // namespace

bool plugin::has_mpi() const {
    return mpi_extension(*descriptor_) != nullptr;
}

std::string plugin::mpi_implementation() const {
    const fb_ext_mpi_v1* ext = mpi_extension(*descriptor_);
    return ext ? std::string(ext->implementation) : std::string();
}

std::unique_ptr<write_stream> plugin::open_write_mpi(const std::string& path, dtype d, const void* comm,
                                                     std::uint64_t offset, std::uint64_t count,
                                                     std::uint64_t total, const option_list& options,
                                                     const open_layout& layout) const {
    const fb_ext_mpi_v1& ext = mpi_extension_of(*this, *descriptor_, path);
    return open_stream<write_stream>(
        *this, "open on a communicator for write", path, d, count, options, layout,
        [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
            return ext.open_write(args, comm, offset, total, out, err, n);
        });
}

std::unique_ptr<read_stream> plugin::open_read_mpi(const std::string& path, dtype d, const void* comm,
                                                   std::uint64_t offset, std::uint64_t count,
                                                   std::uint64_t total, const option_list& options,
                                                   const open_layout& layout) const {
    const fb_ext_mpi_v1& ext = mpi_extension_of(*this, *descriptor_, path);
    return open_stream<read_stream>(*this, "open on a communicator for read", path, d, count, options, layout,
                                    [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
                                        return ext.open_read(args, comm, offset, total, out, err, n);
                                    });
}

bool plugin::has_parts() const {
    return part_extension(*descriptor_) != nullptr;
}

std::vector<std::string> plugin::extension_ids() const {
    std::vector<std::string> out;
    for (const char* id : {FB_EXT_ZERO_COPY_READ_V1, FB_EXT_PART_V1, FB_EXT_CHECK_OPTIONS_V1,
                           FB_EXT_CHECK_CASE_V1, FB_EXT_PREPARE_V1})
        if (has_extension(id)) out.emplace_back(id);
    if (has_read_at()) out.emplace_back(FB_EXT_READ_AT_V1);
    if (has_read_box()) out.emplace_back(FB_EXT_READ_BOX_V1);
    if (has_mpi()) out.emplace_back(FB_EXT_MPI_V1);
    return out;
}

std::vector<std::string> plugin::access_patterns() const {
    std::vector<std::string> out = {"whole"};
    if (has_read_at()) out.insert(out.end(), {"sequential", "random", "strided"});
    if (has_read_box()) out.emplace_back("plane");
    return out;
}

bool plugin::has_read_at() const {
    return read_at_extension(*descriptor_) != nullptr;
}

bool plugin::has_read_box() const {
    return read_box_extension(*descriptor_) != nullptr;
}

std::unique_ptr<write_stream> plugin::open_write(const std::string& path, dtype d, std::uint64_t count,
                                                 const option_list& options,
                                                 const open_layout& layout) const {
    return open_stream<write_stream>(
        *this, "open for write", path, d, count, options, layout,
        [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
            return descriptor_->open_write(args, out, err, n);
        });
}

std::unique_ptr<read_stream> plugin::open_read(const std::string& path, dtype d, std::uint64_t count,
                                               const option_list& options, const open_layout& layout) const {
    return open_stream<read_stream>(*this, "open for read", path, d, count, options, layout,
                                    [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
                                        return descriptor_->open_read(args, out, err, n);
                                    });
}

std::unique_ptr<write_stream> plugin::open_write_part(const std::string& path, dtype d, std::uint64_t offset,
                                                      std::uint64_t count, std::uint64_t total,
                                                      const option_list& options,
                                                      const open_layout& layout) const {
    const fb_ext_part_v1& ext = part_extension_of(*this, *descriptor_, path);
    return open_stream<write_stream>(
        *this, "open a part for write of", path, d, count, options, layout,
        [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
            return ext.open_write_part(args, offset, total, out, err, n);
        });
}

std::unique_ptr<read_stream> plugin::open_read_part(const std::string& path, dtype d, std::uint64_t offset,
                                                    std::uint64_t count, std::uint64_t total,
                                                    const option_list& options,
                                                    const open_layout& layout) const {
    const fb_ext_part_v1& ext = part_extension_of(*this, *descriptor_, path);
    return open_stream<read_stream>(*this, "open a part for read of", path, d, count, options, layout,
                                    [&](const fb_open_args* args, fb_stream** out, char* err, std::size_t n) {
                                        return ext.open_read_part(args, offset, total, out, err, n);
                                    });
}

write_stream::write_stream(const plugin& owner, fb_stream* stream, std::string path,
                           std::unique_ptr<metric_list> metrics)
    : owner_(owner), stream_(stream), path_(std::move(path)), metrics_(std::move(metrics)) {}

write_stream::~write_stream() {
    if (stream_) {
        char err[error_buffer_size];
        owner_.descriptor().close_write(stream_, err, sizeof err);
    }
}

void write_stream::write(const void* data, std::uint64_t count) {
    char err[error_buffer_size] = "";
    fb_status st = owner_.descriptor().write(stream_, data, count, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "write to", path_, err);
}

void write_stream::close() {
    char err[error_buffer_size] = "";
    fb_stream* s = std::exchange(stream_, nullptr);
    if (!s) return;
    fb_status st = owner_.descriptor().close_write(s, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "close after writing", path_, err);
}

read_stream::read_stream(const plugin& owner, fb_stream* stream, std::string path,
                         std::unique_ptr<metric_list> metrics)
    : owner_(owner), stream_(stream), path_(std::move(path)), metrics_(std::move(metrics)) {}

read_stream::~read_stream() {
    if (stream_) {
        char err[error_buffer_size];
        owner_.descriptor().close_read(stream_, err, sizeof err);
    }
}

void read_stream::read(void* data, std::uint64_t count) {
    char err[error_buffer_size] = "";
    fb_status st = owner_.descriptor().read(stream_, data, count, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "read from", path_, err);
}

const void* read_stream::view(std::uint64_t count) {
    if (!owner_.descriptor().get_extension) return nullptr;
    const auto* ext = static_cast<const fb_ext_zero_copy_read_v1*>(
        owner_.descriptor().get_extension(FB_EXT_ZERO_COPY_READ_V1));
    if (!ext || ext->struct_size < FB_EXT_ZERO_COPY_READ_V1_SIZE || !ext->view) return nullptr;
    char err[error_buffer_size] = "";
    const void* data = nullptr;
    fb_status st = ext->view(stream_, count, &data, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "zero-copy view of", path_, err);
    return data;
}

void read_stream::read_at(std::uint64_t offset, void* data, std::uint64_t count) {
    if (!at_) at_ = read_at_extension(owner_.descriptor());
    if (!at_)
        owner_.fail(FB_E_UNSUPPORTED, "read at an offset of", path_,
                    "the plugin has no " FB_EXT_READ_AT_V1 " extension");
    char err[error_buffer_size] = "";
    fb_status st = at_->read_at(stream_, offset, data, count, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "read at an offset of", path_, err);
}

void read_stream::read_box(const std::vector<std::uint64_t>& start, const std::vector<std::uint64_t>& count,
                           void* data) {
    if (!box_) box_ = read_box_extension(owner_.descriptor());
    if (!box_)
        owner_.fail(FB_E_UNSUPPORTED, "read a box of", path_,
                    "the plugin has no " FB_EXT_READ_BOX_V1 " extension");
    char err[error_buffer_size] = "";
    fb_status st = box_->read_box(stream_, static_cast<std::uint32_t>(start.size()), start.data(),
                                  count.data(), data, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "read a box of", path_, err);
}

void read_stream::close() {
    char err[error_buffer_size] = "";
    fb_stream* s = std::exchange(stream_, nullptr);
    if (!s) return;
    fb_status st = owner_.descriptor().close_read(s, err, sizeof err);
    if (st != FB_OK) owner_.fail(st, "close after reading", path_, err);
}

} // namespace formatbench
