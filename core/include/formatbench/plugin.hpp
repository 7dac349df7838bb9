// formatbench C++ plugin helper: turns one C++ class into a conforming
// plugin of the C ABI in plugin.h, with one macro line.
//
//   struct my_format {
//       static constexpr fb_option_decl options[] = {
//           formatbench::sdk::option_int("level", "6", 0, 9, "compression level")};
//       static formatbench::sdk::plugin_info info() { ... };
//       class writer { public: explicit writer(const formatbench::sdk::open_request&);
//                      void write(const void* data, std::uint64_t count); void close(); };
//       class reader { public: explicit reader(const formatbench::sdk::open_request&);
//                      void read(void* data, std::uint64_t count); void close(); };
//       // optional: static bool is_lossless(const formatbench::sdk::options&);
//       // optional (ABI 1.1): static bool is_lossless(const formatbench::sdk::options&, fb_dtype);
//       // optional in reader: const void* view(std::uint64_t count);  (zero-copy read)
//       // optional: static constexpr bool parts = true;  (formatbench.part/1: the
//       //   constructors then also get requests with request.part set)
//       // optional in reader (ABI 1.2): void read_at(std::uint64_t offset, void* data,
//       //   std::uint64_t count);  (formatbench.read-at/1)
//       // optional in reader (ABI 1.2): void read_box(const std::uint64_t* start,
//       //   const std::uint64_t* count, void* data);  (formatbench.read-box/1; one
//       //   start and count per axis of request.shape; for_each_run helps)
//       // optional: static constexpr const char* mpi_implementation =
//       //   FB_MPI_IMPLEMENTATION;  (formatbench.mpi/1, <formatbench/plugin_mpi.h>
//       //   after <mpi.h>: the host opens every stream through the extension,
//       //   and the constructors get request.mpi_comm and request.part set)
//       // The adapter checks every range and box against the stream's count
//       // and shape (FB_E_TRUNCATED) before the reader sees it.
//   };
//   FORMATBENCH_PLUGIN(my_format)
//
// Every exception thrown by the class is caught at the boundary and turned
// into a status and message: sdk::error keeps its status, std::system_error
// becomes FB_E_IO, std::bad_alloc FB_E_NO_MEMORY, anything else
// FB_E_INTERNAL. Header-only; needs C++20 and nothing but the standard library.
#ifndef FORMATBENCH_PLUGIN_HPP
#define FORMATBENCH_PLUGIN_HPP

#include <formatbench/plugin.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace formatbench::sdk {

// An error with a status for the C boundary.
class error : public std::runtime_error {
public:
    error(fb_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    fb_status status() const noexcept { return status_; }

private:
    fb_status status_;
};

// "open '/tmp/x': Permission denied" with FB_E_IO, for errno-setting calls.
inline error io_error(std::string_view what, std::string_view path, int errnum) {
    std::string message(what);
    message += " '";
    message += path;
    message += "': ";
    message += std::strerror(errnum);
    return error(FB_E_IO, message);
}

inline std::size_t dtype_size(fb_dtype dtype) noexcept {
    return fb_dtype_size(dtype);
}

inline constexpr const char* dtype_name(fb_dtype dtype) noexcept {
    switch (dtype) {
    case FB_DTYPE_F64: return "f64";
    case FB_DTYPE_F32: return "f32";
    case FB_DTYPE_I64: return "i64";
    case FB_DTYPE_I32: return "i32";
    case FB_DTYPE_U8: return "u8";
    }
    return "?";
}

// ---- Option declarations ---------------------------------------------------

inline constexpr fb_option_decl option_bool(const char* name, const char* def, const char* help) {
    return {name, FB_OPT_BOOL, def, 0, 0, 0, nullptr, help};
}
inline constexpr fb_option_decl option_int(const char* name, const char* def, double min, double max,
                                           const char* help) {
    return {name, FB_OPT_INT, def, min, max, 1, nullptr, help};
}
inline constexpr fb_option_decl option_float(const char* name, const char* def, double min, double max,
                                             const char* help) {
    return {name, FB_OPT_FLOAT, def, min, max, 1, nullptr, help};
}
inline constexpr fb_option_decl option_size(const char* name, const char* def, double min, double max,
                                            const char* help) {
    return {name, FB_OPT_SIZE, def, min, max, 1, nullptr, help};
}
inline constexpr fb_option_decl option_string(const char* name, const char* def, const char* help) {
    return {name, FB_OPT_STRING, def, 0, 0, 0, nullptr, help};
}
// choices: a static NULL-terminated array, e.g.
//   static constexpr const char* modes[] = {"a", "b", nullptr};
inline constexpr fb_option_decl option_choice(const char* name, const char* def, const char* const* choices,
                                              const char* help) {
    return {name, FB_OPT_CHOICE, def, 0, 0, 0, choices, help};
}

// ---- Option values -----------------------------------------------------------

namespace detail {

inline bool parse_bool(std::string_view text, bool& out) {
    if (text == "true" || text == "yes" || text == "on" || text == "1") {
        out = true;
        return true;
    }
    if (text == "false" || text == "no" || text == "off" || text == "0") {
        out = false;
        return true;
    }
    return false;
}

inline bool parse_int(std::string_view text, std::int64_t& out) {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

inline bool parse_float(std::string_view text, double& out) {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty() && std::isfinite(out);
}

// fb_parse_size's grammar (plugin.h): "4096", "64KiB", "1MB", "1.5 MiB".
inline bool parse_size(const std::string& text, std::uint64_t& out) {
    return fb_parse_size(text.c_str(), &out) != 0;
}

} // namespace detail

// The options of one open call, checked against the plugin's declarations:
// an unknown name, a malformed value or a value out of range throws
// sdk::error(FB_E_INVALID_OPTION) naming the option and what is allowed.
// Options not given take their declared default.
class options {
public:
    options(const fb_option_decl* decls, std::size_t decl_count, const fb_option* given,
            std::size_t given_count)
        : decls_(decls), decl_count_(decl_count) {
        values_.resize(decl_count);
        for (std::size_t i = 0; i < decl_count; ++i)
            values_[i] = decls[i].default_value;
        for (std::size_t j = 0; j < given_count; ++j) {
            std::size_t i = index_of(given[j].name);
            if (i == decl_count)
                throw error(FB_E_INVALID_OPTION, std::string("unknown option '") + given[j].name + "'");
            values_[i] = given[j].value ? given[j].value : "";
        }
        for (std::size_t i = 0; i < decl_count; ++i)
            check(decls[i], values_[i]);
    }

    bool get_bool(std::string_view name) const {
        bool out = false;
        detail::parse_bool(value(name, FB_OPT_BOOL), out);
        return out;
    }
    std::int64_t get_int(std::string_view name) const {
        std::int64_t out = 0;
        detail::parse_int(value(name, FB_OPT_INT), out);
        return out;
    }
    double get_float(std::string_view name) const {
        double out = 0;
        detail::parse_float(value(name, FB_OPT_FLOAT), out);
        return out;
    }
    std::uint64_t get_size(std::string_view name) const {
        std::uint64_t out = 0;
        detail::parse_size(value(name, FB_OPT_SIZE), out);
        return out;
    }
    const std::string& get_string(std::string_view name) const {
        const std::string& v = value(name, FB_OPT_STRING);
        return v;
    }

    // Validates one value against its declaration; throws sdk::error.
    static void check(const fb_option_decl& d, const std::string& v) {
        auto fail = [&](const std::string& expected) {
            throw error(FB_E_INVALID_OPTION,
                        std::string("option '") + d.name + "': '" + v + "' is not " + expected);
        };
        auto range = [&]() { return std::string(" in [") + number(d.min) + ", " + number(d.max) + "]"; };
        switch (d.type) {
        case FB_OPT_BOOL: {
            bool b;
            if (!detail::parse_bool(v, b)) fail("a boolean (true or false)");
            break;
        }
        case FB_OPT_INT: {
            std::int64_t x;
            if (!detail::parse_int(v, x)) fail("an integer");
            if (d.has_range && (double(x) < d.min || double(x) > d.max)) fail("an integer" + range());
            break;
        }
        case FB_OPT_FLOAT: {
            double x;
            if (!detail::parse_float(v, x)) fail("a number");
            if (d.has_range && (x < d.min || x > d.max)) fail("a number" + range());
            break;
        }
        case FB_OPT_SIZE: {
            std::uint64_t x;
            if (!detail::parse_size(v, x)) fail("a byte size (e.g. 4096, 64KiB, 1MB)");
            if (d.has_range && (double(x) < d.min || double(x) > d.max)) fail("a byte size" + range());
            break;
        }
        case FB_OPT_CHOICE: {
            std::string all;
            for (const char* const* c = d.choices; c && *c; ++c) {
                if (v == *c) return;
                all += all.empty() ? "" : " | ";
                all += *c;
            }
            fail("one of " + all);
            break;
        }
        case FB_OPT_STRING: break;
        }
    }

private:
    static std::string number(double x) {
        char buf[32];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
        return ec == std::errc() ? std::string(buf, end) : std::string("?");
    }

    std::size_t index_of(std::string_view name) const {
        for (std::size_t i = 0; i < decl_count_; ++i)
            if (name == decls_[i].name) return i;
        return decl_count_;
    }

    const std::string& value(std::string_view name, fb_option_type type) const {
        std::size_t i = index_of(name);
        // A typo in the plugin's own code, not the user's input.
        if (i == decl_count_ || decls_[i].type != type) {
            // FB_OPT_CHOICE values are read with get_string.
            if (!(i != decl_count_ && type == FB_OPT_STRING && decls_[i].type == FB_OPT_CHOICE))
                throw error(FB_E_INTERNAL,
                            std::string("plugin reads undeclared option '") + std::string(name) + "'");
        }
        return values_[i];
    }

    const fb_option_decl* decls_;
    std::size_t decl_count_;
    std::vector<std::string> values_;
};

// One part of a shared file (formatbench.part/1): this stream's elements
// are [offset, offset + count) of a file of `total` elements.
struct part_of_file {
    std::uint64_t offset = 0;
    std::uint64_t total = 0;
};

// The host's metric sink, kept by a stream that reports at close (a copy of
// open_request's, cheap to store). Does nothing with a host that does not
// collect metrics.
struct metric_reporter {
    fb_metric_fn fn = nullptr;
    void* sink = nullptr;
    void operator()(const char* name, double value) const noexcept {
        if (fn) fn(sink, name, value);
    }
};

// Work once per process before the first stream, out of every timed phase
// (formatbench.prepare/1): a class with `static void prepare(const
// sdk::options&, fb_dtype)` (throwing sdk::error to fail the case) is
// called by the host in the process that runs each case, before its first
// open; a second call in the same process must return at once.

// The case a format entry meets (formatbench.check-case/1): a class with
// `static void check_case(const sdk::options&, const sdk::case_info&)` that
// throws sdk::error refuses, at plan, an option set that cannot work for it.
struct case_info {
    fb_dtype dtype;
    std::uint64_t count;                   // elements of the whole file
    std::vector<std::uint64_t> shape;      // row-major; empty for a flat array
    fb_read_access access = FB_READ_WHOLE; // how the read phase reads
};

// What a writer or reader constructor receives.
struct open_request {
    fb_dtype dtype;
    std::string path;
    std::uint64_t count; // write: total or FB_COUNT_UNKNOWN; read: total to be read
    sdk::options options;
    std::optional<part_of_file> part = {}; // set when the host opens one part of a shared file
    fb_metric_fn metric_fn = nullptr;      // the host's sink (ABI 1.1), null when absent
    void* metric_sink = nullptr;
    // The data set's shape, row-major (ABI 1.2): empty for a flat array.
    // Its product is `count` (or the part's total).
    std::vector<std::uint64_t> shape = {};
    bool direct = false; // read with O_DIRECT (FB_OPEN_DIRECT; only with FB_CAP_DIRECT_IO)
    // formatbench.mpi/1: points at the host's MPI_Comm (read it as
    // *static_cast<const MPI_Comm*>(mpi_comm)), valid until close returns;
    // null when the stream was opened through the descriptor's open calls.
    const void* mpi_comm = nullptr;

    std::size_t element_size() const noexcept { return dtype_size(dtype); }

    // Reports a named figure of this stream to the host (ABI 1.1): name
    // [a-z0-9_]+ with its unit as a suffix (compressed_bytes, codec_s). Does
    // nothing with a host that does not collect them. Callable until close
    // returns; a later value of a name replaces the earlier one.
    void metric(const char* name, double value) const noexcept {
        if (metric_fn) metric_fn(metric_sink, name, value);
    }
    // The sink to keep, for a stream that reports later (at close).
    metric_reporter metrics() const noexcept { return {metric_fn, metric_sink}; }
};

// The contiguous runs of a box of a row-major array of `shape`: calls
// fn(offset, length, position) for each, in the box's own row-major order,
// where offset is the run's first element in the flat array, length its
// element count and position where it starts in the box's row-major copy.
// Trailing axes that the box spans whole are merged into one run, so a
// plane orthogonal to axis 0 is a single run. Nothing is called for an
// empty box. The box must lie inside the shape (the adapter checks it).
template <class Fn>
void for_each_run(const std::vector<std::uint64_t>& shape, const std::uint64_t* start,
                  const std::uint64_t* count, Fn&& fn) {
    const std::size_t nd = shape.size();
    if (nd == 0) return;
    for (std::size_t j = 0; j < nd; ++j)
        if (count[j] == 0) return;
    std::vector<std::uint64_t> stride(nd, 1); // elements between neighbours on axis j
    for (std::size_t j = nd - 1; j > 0; --j)
        stride[j - 1] = stride[j] * shape[j];
    std::size_t k = nd - 1; // axes k.. form one run
    std::uint64_t inner = 1, length = count[k];
    while (k > 0 && count[k] == shape[k]) {
        inner *= shape[k];
        --k;
        length = count[k] * inner;
    }
    std::vector<std::uint64_t> index(k, 0); // position on the outer axes 0..k-1, within the box
    std::uint64_t position = 0;
    for (;;) {
        std::uint64_t offset = start[k] * stride[k];
        for (std::size_t j = 0; j < k; ++j)
            offset += (start[j] + index[j]) * stride[j];
        fn(offset, length, position);
        position += length;
        std::size_t j = k;
        while (j > 0 && ++index[j - 1] == count[j - 1]) {
            index[j - 1] = 0;
            --j;
        }
        if (j == 0) return;
    }
}

// Identity and capabilities, returned by the plugin class's static info().
struct plugin_info {
    const char* id;
    const char* version;
    const char* description;
    const char* license;
    const char* extension;
    std::uint32_t dtypes;
    std::uint64_t flags;
};

namespace detail {

inline void set_message(char* err, std::size_t err_size, std::string_view text) noexcept {
    if (!err || err_size == 0) return;
    std::size_t n = text.size() < err_size - 1 ? text.size() : err_size - 1;
    std::memcpy(err, text.data(), n);
    err[n] = '\0';
}

// Runs fn, turning every exception into a status and message.
template <class Fn>
fb_status guarded(char* err, std::size_t err_size, Fn&& fn) noexcept {
    try {
        fn();
        return FB_OK;
    } catch (const error& e) {
        set_message(err, err_size, e.what());
        return e.status();
    } catch (const std::bad_alloc&) {
        set_message(err, err_size, "out of memory");
        return FB_E_NO_MEMORY;
    } catch (const std::system_error& e) {
        set_message(err, err_size, e.what());
        return FB_E_IO;
    } catch (const std::exception& e) {
        set_message(err, err_size, e.what());
        return FB_E_INTERNAL;
    } catch (...) {
        set_message(err, err_size, "unknown exception in plugin");
        return FB_E_INTERNAL;
    }
}

template <class T>
constexpr std::size_t option_count() {
    if constexpr (requires { T::options; })
        return sizeof(T::options) / sizeof(T::options[0]);
    else
        return 0;
}

template <class T>
constexpr const fb_option_decl* option_decls() {
    if constexpr (requires { T::options; })
        return T::options;
    else
        return nullptr;
}

template <class T>
open_request make_request(const fb_open_args* args) {
    if (!args || !args->path) throw error(FB_E_STATE, "open called without arguments");
    // Every field read below exists since ABI 1.0; a later minor's host may pass a larger struct.
    if (args->struct_size < FB_OPEN_ARGS_SIZE_1_0)
        throw error(FB_E_STATE, "open arguments from an older, smaller ABI");
    if (dtype_size(args->dtype) == 0) throw error(FB_E_UNSUPPORTED, "unknown dtype");
    if (!(T::info().dtypes & FB_DTYPE_BIT(args->dtype)))
        throw error(FB_E_UNSUPPORTED,
                    std::string("dtype ") + dtype_name(args->dtype) + " is not supported by " + T::info().id);
    open_request r{args->dtype, args->path, args->count,
                   options(option_decls<T>(), option_count<T>(), args->options, args->option_count)};
    // The metric sink exists since ABI 1.1; a 1.0 host passes a smaller struct.
    if (args->struct_size >= FB_OPEN_ARGS_SIZE_1_1) {
        r.metric_fn = args->metric;
        r.metric_sink = args->metric_sink;
    }
    // The shape and the open flags exist since ABI 1.2.
    if (args->struct_size >= FB_OPEN_ARGS_SIZE_1_2) {
        if (args->ndim > FB_MAX_NDIM || (args->ndim > 0 && !args->shape))
            throw error(FB_E_STATE, "open arguments with a shape of " + std::to_string(args->ndim) +
                                        " axes but no extents (at most " + std::to_string(FB_MAX_NDIM) + ")");
        r.shape.assign(args->shape, args->shape + args->ndim);
        r.direct = (args->open_flags & FB_OPEN_DIRECT) != 0;
        if (r.direct && !(T::info().flags & FB_CAP_DIRECT_IO))
            throw error(FB_E_UNSUPPORTED, std::string("plugin '") + T::info().id +
                                              "' cannot read with O_DIRECT (no FB_CAP_DIRECT_IO): '" +
                                              r.path + "'");
    }
    return r;
}

// A stream and what the adapter checks its calls against.
template <class S>
struct stream_box {
    std::uint64_t count; // of the file (a part's own count for a part)
    std::vector<std::uint64_t> shape;
    std::string path;
    S impl;
};

// A box is the request's: the plugin's own stream data is opaque.
template <class S>
stream_box<S>* make_box(open_request&& r) {
    std::uint64_t count = r.count;
    std::vector<std::uint64_t> shape = r.shape;
    std::string path = r.path;
    return new stream_box<S>{count, std::move(shape), std::move(path), S(std::move(r))};
}

template <class S>
S& unbox(fb_stream* s) {
    return reinterpret_cast<stream_box<S>*>(s)->impl;
}

template <class T>
struct adapter {
    using writer = typename T::writer;
    using reader = typename T::reader;

    static int is_lossless_for(fb_dtype dtype, const fb_option* opts, std::size_t n) {
        if constexpr (requires(const options& o) { T::is_lossless(o, dtype); }) {
            try {
                return T::is_lossless(options(option_decls<T>(), option_count<T>(), opts, n), dtype) ? 1 : 0;
            } catch (...) {
                return 0;
            }
        } else {
            return is_lossless(opts, n);
        }
    }

    static int is_lossless(const fb_option* opts, std::size_t n) {
        if constexpr (requires(const options& o) { T::is_lossless(o); }) {
            try {
                return T::is_lossless(options(option_decls<T>(), option_count<T>(), opts, n)) ? 1 : 0;
            } catch (...) {
                return 0;
            }
        } else {
            return (T::info().flags & FB_CAP_LOSSLESS) ? 1 : 0;
        }
    }

    template <class S>
    static fb_status open(const fb_open_args* args, fb_stream** out, char* err, std::size_t err_size) {
        if (out) *out = nullptr;
        return guarded(err, err_size, [&] {
            if (!out) throw error(FB_E_STATE, "open called without an output pointer");
            *out = reinterpret_cast<fb_stream*>(make_box<S>(make_request<T>(args)));
        });
    }

    static fb_status write(fb_stream* s, const void* data, std::uint64_t count, char* err,
                           std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!s) throw error(FB_E_STATE, "write on a null stream");
            if (count && !data) throw error(FB_E_STATE, "write with a null buffer");
            unbox<writer>(s).write(data, count);
        });
    }

    static fb_status read(fb_stream* s, void* data, std::uint64_t count, char* err, std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!s) throw error(FB_E_STATE, "read on a null stream");
            if (count && !data) throw error(FB_E_STATE, "read with a null buffer");
            unbox<reader>(s).read(data, count);
        });
    }

    template <class S>
    static fb_status close(fb_stream* s, char* err, std::size_t err_size) {
        if (!s) return FB_OK;
        auto* box = reinterpret_cast<stream_box<S>*>(s);
        fb_status st = guarded(err, err_size, [&] { box->impl.close(); });
        delete box; // destructors must not throw
        return st;
    }

    static fb_status view(fb_stream* s, std::uint64_t count, const void** data, char* err,
                          std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!s || !data) throw error(FB_E_STATE, "view on a null stream");
            *data = unbox<reader>(s).view(count);
        });
    }

    template <class S>
    static fb_status open_part(const fb_open_args* args, std::uint64_t offset, std::uint64_t total,
                               fb_stream** out, char* err, std::size_t err_size) {
        return open_part_on<S>(args, offset, total, nullptr, out, err, err_size);
    }

    // A part, on the host's communicator for formatbench.mpi/1 (else null).
    template <class S>
    static fb_status open_part_on(const fb_open_args* args, std::uint64_t offset, std::uint64_t total,
                                  const void* comm, fb_stream** out, char* err, std::size_t err_size) {
        if (out) *out = nullptr;
        return guarded(err, err_size, [&] {
            if (!out) throw error(FB_E_STATE, "open called without an output pointer");
            open_request r = make_request<T>(args);
            if (args->count > total || offset > total - args->count)
                throw error(FB_E_INVALID_OPTION, "part [" + std::to_string(offset) + ", " +
                                                     std::to_string(offset + args->count) +
                                                     ") lies outside the " + std::to_string(total) +
                                                     " elements of '" + r.path + "'");
            r.part = part_of_file{offset, total};
            r.mpi_comm = comm;
            *out = reinterpret_cast<fb_stream*>(make_box<S>(std::move(r)));
        });
    }

    template <class S>
    static fb_status open_mpi(const fb_open_args* args, const void* comm, std::uint64_t offset,
                              std::uint64_t total, fb_stream** out, char* err, std::size_t err_size) {
        if (!comm) {
            if (out) *out = nullptr;
            set_message(err, err_size, "an MPI open without a communicator");
            return FB_E_STATE;
        }
        return open_part_on<S>(args, offset, total, comm, out, err, err_size);
    }

    static fb_status read_at(fb_stream* s, std::uint64_t offset, void* data, std::uint64_t count, char* err,
                             std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!s) throw error(FB_E_STATE, "read_at on a null stream");
            if (count && !data) throw error(FB_E_STATE, "read_at with a null buffer");
            auto& box = *reinterpret_cast<stream_box<reader>*>(s);
            if (offset > box.count || count > box.count - offset)
                throw error(FB_E_TRUNCATED, "elements [" + std::to_string(offset) + ", " +
                                                std::to_string(offset + count) + ") lie outside the " +
                                                std::to_string(box.count) + " elements of '" + box.path +
                                                "'");
            box.impl.read_at(offset, data, count);
        });
    }

    static fb_status read_box(fb_stream* s, std::uint32_t ndim, const std::uint64_t* start,
                              const std::uint64_t* count, void* data, char* err, std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!s || !start || !count) throw error(FB_E_STATE, "read_box on a null stream or box");
            auto& box = *reinterpret_cast<stream_box<reader>*>(s);
            if (box.shape.empty() || ndim != box.shape.size())
                throw error(FB_E_TRUNCATED, "a box of " + std::to_string(ndim) + " axes on '" + box.path +
                                                "', whose data set has " + std::to_string(box.shape.size()));
            bool empty = false;
            for (std::uint32_t k = 0; k < ndim; ++k) {
                if (start[k] > box.shape[k] || count[k] > box.shape[k] - start[k])
                    throw error(FB_E_TRUNCATED,
                                "box axis " + std::to_string(k) + ": [" + std::to_string(start[k]) + ", " +
                                    std::to_string(start[k] + count[k]) + ") lies outside [0, " +
                                    std::to_string(box.shape[k]) + ") of '" + box.path + "'");
                empty = empty || count[k] == 0;
            }
            if (!empty && !data) throw error(FB_E_STATE, "read_box with a null buffer");
            box.impl.read_box(start, count, data);
        });
    }

    static fb_status check_options(fb_dtype dtype, const fb_option* opts, std::size_t n, char* err,
                                   std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (dtype_size(dtype) == 0) throw error(FB_E_UNSUPPORTED, "unknown dtype");
            T::check(options(option_decls<T>(), option_count<T>(), opts, n), dtype);
        });
    }

    static fb_status check_case(const fb_case_info* info, const fb_option* opts, std::size_t n, char* err,
                                std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (!info || info->struct_size < FB_CASE_INFO_SIZE_1_0 || dtype_size(info->dtype) == 0 ||
                info->ndim > FB_MAX_NDIM || (info->ndim > 0 && !info->shape))
                throw error(FB_E_STATE, "check_case with a missing or malformed case");
            case_info c{info->dtype, info->count, {}, static_cast<fb_read_access>(info->read_access)};
            if (info->ndim > 0) c.shape.assign(info->shape, info->shape + info->ndim);
            T::check_case(options(option_decls<T>(), option_count<T>(), opts, n), c);
        });
    }

    static fb_status prepare(fb_dtype dtype, const fb_option* opts, std::size_t n, char* err,
                             std::size_t err_size) {
        return guarded(err, err_size, [&] {
            if (dtype_size(dtype) == 0) throw error(FB_E_UNSUPPORTED, "unknown dtype");
            T::prepare(options(option_decls<T>(), option_count<T>(), opts, n), dtype);
        });
    }

    static const void* get_extension(const char* id) {
        if (!id) return nullptr;
        if constexpr (requires(const options& o) { T::prepare(o, FB_DTYPE_F64); }) {
            static const fb_ext_prepare_v1 preparer{sizeof(fb_ext_prepare_v1), &prepare};
            if (std::strcmp(id, FB_EXT_PREPARE_V1) == 0) return &preparer;
        }
        if constexpr (requires(const options& o) { T::check(o, FB_DTYPE_F64); }) {
            static const fb_ext_check_options_v1 checker{sizeof(fb_ext_check_options_v1), &check_options};
            if (std::strcmp(id, FB_EXT_CHECK_OPTIONS_V1) == 0) return &checker;
        }
        if constexpr (requires(const options& o, const case_info& c) { T::check_case(o, c); }) {
            static const fb_ext_check_case_v1 case_checker{sizeof(fb_ext_check_case_v1), &check_case};
            if (std::strcmp(id, FB_EXT_CHECK_CASE_V1) == 0) return &case_checker;
        }
        if constexpr (requires(reader & r) { r.view(std::uint64_t{}); }) {
            static const fb_ext_zero_copy_read_v1 zero_copy{sizeof(fb_ext_zero_copy_read_v1), &view};
            if (std::strcmp(id, FB_EXT_ZERO_COPY_READ_V1) == 0) return &zero_copy;
        }
        if constexpr (requires(reader & r, void* p) { r.read_at(std::uint64_t{}, p, std::uint64_t{}); }) {
            static const fb_ext_read_at_v1 at{sizeof(fb_ext_read_at_v1), &read_at};
            if (std::strcmp(id, FB_EXT_READ_AT_V1) == 0) return &at;
        }
        if constexpr (requires(reader & r, const std::uint64_t* b, void* p) { r.read_box(b, b, p); }) {
            static const fb_ext_read_box_v1 boxes{sizeof(fb_ext_read_box_v1), &read_box};
            if (std::strcmp(id, FB_EXT_READ_BOX_V1) == 0) return &boxes;
        }
        if constexpr (requires { T::mpi_implementation; }) {
            static const fb_ext_mpi_v1 mpi{sizeof(fb_ext_mpi_v1), T::mpi_implementation, &open_mpi<writer>,
                                           &open_mpi<reader>};
            if (std::strcmp(id, FB_EXT_MPI_V1) == 0) return &mpi;
        }
        if constexpr (requires { requires T::parts; }) {
            static const fb_ext_part_v1 parts{sizeof(fb_ext_part_v1), &open_part<writer>, &open_part<reader>};
            if (std::strcmp(id, FB_EXT_PART_V1) == 0) return &parts;
        }
        return nullptr;
    }

    static const fb_plugin_descriptor* descriptor() {
        static const fb_plugin_descriptor d = [] {
            plugin_info info = T::info();
            fb_plugin_descriptor x{};
            x.magic = FB_PLUGIN_MAGIC;
            x.abi_major = FB_ABI_MAJOR;
            x.abi_minor = FB_ABI_MINOR;
            x.struct_size = sizeof(fb_plugin_descriptor);
            x.option_decl_size = sizeof(fb_option_decl);
            x.id = info.id;
            x.version = info.version;
            x.description = info.description;
            x.license = info.license;
            x.extension = info.extension ? info.extension : "";
            x.dtypes = info.dtypes;
            x.flags = info.flags;
            x.options = option_decls<T>();
            x.option_count = static_cast<std::uint32_t>(option_count<T>());
            x.is_lossless = &is_lossless;
            x.open_write = &open<writer>;
            x.write = &write;
            x.close_write = &close<writer>;
            x.open_read = &open<reader>;
            x.read = &read;
            x.close_read = &close<reader>;
            x.get_extension = &get_extension;
            x.is_lossless_for = &is_lossless_for;
            return x;
        }();
        return &d;
    }
};

} // namespace detail
} // namespace formatbench::sdk

// Defines the exported entry point for plugin class CLASS. Use once per library.
#define FORMATBENCH_PLUGIN(CLASS)                                                                            \
    extern "C" FB_PLUGIN_EXPORT const fb_plugin_descriptor* fb_plugin_entry(std::uint16_t, std::uint16_t) {  \
        return ::formatbench::sdk::detail::adapter<CLASS>::descriptor();                                     \
    }

#endif // FORMATBENCH_PLUGIN_HPP
