// One case's repetitions, timed as docs/methodology.md describes.
#include "run/case_executor.hpp"

#include "run/buffer.hpp"
#include "base/error.hpp"
#include "run/file_ops.hpp"
#include "run/timing.hpp"
#include "run/verify.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <new>
#include <system_error>

namespace formatbench {

namespace {
volatile unsigned char touched_sink;
} // namespace

void touch_pages(const unsigned char* p, std::uint64_t n) {
    const std::uint64_t page = page_size();
    unsigned char acc = 0;
    for (std::uint64_t i = 0; i < n; i += page)
        acc ^= p[i];
    if (n > 0) acc ^= p[n - 1];
    touched_sink = acc;
}

namespace {

// Fills the read buffer with a pattern before each read, so a plugin that
// reports success without delivering data cannot pass on stale bytes.
void poison(aligned_buffer& b) {
    std::memset(b.data(), 0xA5, b.size());
}

class repetition_runner {
public:
    repetition_runner(const case_spec& spec, const plugin& plug, const data_source& source,
                      const std::string& path, const execution_limits& limits)
        : spec_(spec), plug_(plug), source_(source), path_(path), limits_(limits),
          esize_(dtype_size(spec.dataset.type)), count_(spec.dataset.count), payload_(count_ * esize_) {
        std::uint64_t chunk_bytes = spec.params.chunk_bytes ? spec.params.chunk_bytes : payload_;
        chunk_ = std::max<std::uint64_t>(1, chunk_bytes / esize_);
        if (chunk_ > count_ && count_ > 0) chunk_ = count_;
        in_memory_ = payload_ <= limits.in_memory_bytes;
        std::uint64_t buffer_elems = in_memory_ ? count_ : chunk_;
        write_buf_ = aligned_buffer(buffer_elems * esize_, spec.params.align_offset);
        read_buf_ = aligned_buffer(buffer_elems * esize_, spec.params.align_offset);
        expected_ = in_memory_ ? nullptr : std::make_unique<aligned_buffer>(chunk_ * esize_, 0);
        if (in_memory_) source_.fill(0, count_, write_buf_.data());
    }

    std::size_t alignment() const { return write_buf_.alignment(); }
    bool in_memory() const { return in_memory_; }

    repetition run(verification& v) {
        repetition rep;
        remove_output(path_);
        write_phase(rep.write);
        if (spec_.params.cache == cache_mode::cold && !plug_.has(FB_CAP_NO_FILE)) drop_cache(path_);
        rep.resident_fraction = plug_.has(FB_CAP_NO_FILE) ? -1 : resident_fraction(path_);
        read_phase(rep.read, v);
        return rep;
    }

private:
    void write_phase(phase_sample& t) {
        const auto& opts = spec_.format.options;
        auto start = clock_reading::start();
        auto out = plug_.open_write(path_, spec_.dataset.type, count_, opts);
        if (in_memory_) {
            for (std::uint64_t first = 0; first < count_; first += chunk_)
                out->write(write_buf_.data() + first * esize_, std::min(chunk_, count_ - first));
            out->close();
            sync();
            accumulate(t, start, clock_reading::stop());
            return;
        }
        auto stop = clock_reading::stop();
        accumulate(t, start, stop);
        for (std::uint64_t first = 0; first < count_; first += chunk_) {
            std::uint64_t n = std::min(chunk_, count_ - first);
            source_.fill(first, n, write_buf_.data()); // untimed
            start = clock_reading::start();
            out->write(write_buf_.data(), n);
            accumulate(t, start, clock_reading::stop());
        }
        start = clock_reading::start();
        out->close();
        sync();
        accumulate(t, start, clock_reading::stop());
    }

    void sync() {
        if (spec_.params.sync == sync_mode::none || plug_.has(FB_CAP_NO_FILE)) return;
        sync_output(path_, spec_.params.sync == sync_mode::data);
    }

    void read_phase(phase_sample& t, verification& v) {
        if (spec_.params.read == read_mode::view) {
            view_phase(t, v);
            return;
        }
        const auto& opts = spec_.format.options;
        const dtype type = spec_.dataset.type;
        poison(read_buf_);
        auto start = clock_reading::start();
        auto in = plug_.open_read(path_, type, count_, opts);
        if (in_memory_) {
            for (std::uint64_t first = 0; first < count_; first += chunk_)
                in->read(read_buf_.data() + first * esize_, std::min(chunk_, count_ - first));
            in->close();
            accumulate(t, start, clock_reading::stop());
            verify_chunk(type, write_buf_.data(), read_buf_.data(), count_, v);
            return;
        }
        accumulate(t, start, clock_reading::stop());
        for (std::uint64_t first = 0; first < count_; first += chunk_) {
            std::uint64_t n = std::min(chunk_, count_ - first);
            start = clock_reading::start();
            in->read(read_buf_.data(), n);
            accumulate(t, start, clock_reading::stop());
            source_.fill(first, n, expected_->data()); // untimed
            verify_chunk(type, expected_->data(), read_buf_.data(), n, v);
            poison(read_buf_);
        }
        start = clock_reading::start();
        in->close();
        accumulate(t, start, clock_reading::stop());
    }

    // read: view (docs/methodology.md). Timed: open, the plugin's view of the
    // whole payload, one load per page of it (touch_pages), and close. The
    // verification reads the view in place, untimed, before close (a view
    // is valid until close); nothing is copied into the runner's buffer.
    void view_phase(phase_sample& t, verification& v) {
        const dtype type = spec_.dataset.type;
        auto start = clock_reading::start();
        auto in = plug_.open_read(path_, type, count_, spec_.format.options);
        const auto* data = static_cast<const unsigned char*>(in->view(count_));
        if (!data)
            throw plugin_error(
                plug_.id(), FB_E_UNSUPPORTED,
                fmt::format("plugin '{}' gave no zero-copy view of '{}' (read: view); use read: copy",
                            plug_.id(), path_));
        touch_pages(data, payload_);
        accumulate(t, start, clock_reading::stop());
        if (in_memory_) {
            verify_chunk(type, write_buf_.data(), data, count_, v);
        } else {
            for (std::uint64_t first = 0; first < count_; first += chunk_) {
                std::uint64_t n = std::min(chunk_, count_ - first);
                source_.fill(first, n, expected_->data()); // untimed
                verify_chunk(type, expected_->data(), data + first * esize_, n, v);
            }
        }
        start = clock_reading::start();
        in->close();
        accumulate(t, start, clock_reading::stop());
    }

    const case_spec& spec_;
    const plugin& plug_;
    const data_source& source_;
    const std::string& path_;
    const execution_limits& limits_;
    std::size_t esize_;
    std::uint64_t count_;
    std::uint64_t payload_;
    std::uint64_t chunk_ = 1;
    bool in_memory_ = true;
    aligned_buffer write_buf_, read_buf_;
    std::unique_ptr<aligned_buffer> expected_;
};

double total_time(const repetition& r) {
    return r.write.wall_s + r.read.wall_s;
}

} // namespace

std::uint64_t default_in_memory_bytes() {
    long pages = ::sysconf(_SC_PHYS_PAGES);
    long page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 1ull << 30;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 4;
}

std::int64_t peak_rss_bytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
    return -1;
}

void reset_peak_rss() {
    // "5" resets the peak RSS of this process (Linux >= 4.0).
    std::ofstream("/proc/self/clear_refs") << "5";
}

case_result execute_case(const case_spec& spec, const plugin& plug, const data_source& source,
                         const std::string& path, const execution_limits& limits) {
    case_result r;
    r.spec = spec;
    r.payload_bytes = spec.dataset.count * dtype_size(spec.dataset.type);
    r.plugin_version = plug.version();
    r.plugin_file = plug.file().string();
    r.verify.lossless_expected = plug.is_lossless(spec.format.options);
    try {
        repetition_runner runner(spec, plug, source, path, limits);
        r.buffer_alignment = runner.alignment();
        verification scratch;
        for (unsigned i = 0; i < limits.warmups; ++i)
            runner.run(scratch);
        double elapsed = 0;
        while (r.samples.size() < limits.max_repetitions &&
               (r.samples.size() < limits.repeat || elapsed < limits.min_time)) {
            // Each repetition is verified on its own; the worst one is kept.
            verification v;
            v.lossless_expected = r.verify.lossless_expected;
            r.samples.push_back(runner.run(v));
            elapsed += total_time(r.samples.back());
            if (!r.verify.checked || v.mismatches > r.verify.mismatches) r.verify = v;
        }
        r.file_bytes = plug.has(FB_CAP_NO_FILE) ? 0 : output_size(path);
        if (r.verify.lossless_expected && r.verify.mismatches > 0) {
            r.status = case_status::failed;
            r.error = fmt::format(
                "plugin '{}' is lossless with these options, but {} of {} values read back differ "
                "(max abs error {:g})",
                plug.id(), r.verify.mismatches, r.verify.compared, r.verify.max_abs_error);
        }
    } catch (const std::bad_alloc&) {
        r.status = case_status::failed;
        r.error = fmt::format("out of memory for {} bytes of data", r.payload_bytes);
    } catch (const std::exception& e) {
        r.status = case_status::failed;
        r.error = e.what();
    }
    r.peak_rss_bytes = peak_rss_bytes();
    return r;
}

} // namespace formatbench
