// One case's repetitions, timed as docs/methodology.md describes.
#include "run/case_runner.hpp"

#include "base/error.hpp"
#include "run/file_ops.hpp"
#include "run/system_info.hpp"
#include "run/timing.hpp"
#include "run/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace formatbench {

namespace {
volatile unsigned char touched_sink;

// Fills the read buffer with a pattern before each read, so a plugin that
// reports success without delivering data cannot pass on stale bytes.
void poison(aligned_buffer& b) {
    std::memset(b.data(), 0xA5, b.size());
}

} // namespace

void touch_pages(const unsigned char* p, std::uint64_t n) {
    const std::uint64_t page = page_size();
    unsigned char acc = 0;
    for (std::uint64_t i = 0; i < n; i += page)
        acc ^= p[i];
    if (n > 0) acc ^= p[n - 1];
    touched_sink = acc;
}

case_runner::case_runner(const case_spec& spec, const plugin& plug, const data_source& source,
                         std::string path, std::uint64_t in_memory_bytes)
    : spec_(spec), plug_(plug), source_(source), path_(std::move(path)),
      esize_(dtype_size(spec.dataset.type)), count_(spec.dataset.count), payload_(count_ * esize_) {
    std::uint64_t chunk_bytes = spec.params.chunk_bytes ? spec.params.chunk_bytes : payload_;
    chunk_ = std::max<std::uint64_t>(1, chunk_bytes / esize_);
    if (chunk_ > count_ && count_ > 0) chunk_ = count_;
    in_memory_ = payload_ <= in_memory_bytes;
    std::uint64_t buffer_elems = in_memory_ ? count_ : chunk_;
    write_buf_ = aligned_buffer(buffer_elems * esize_, spec.params.align_offset);
    read_buf_ = aligned_buffer(buffer_elems * esize_, spec.params.align_offset);
    expected_ = in_memory_ ? nullptr : std::make_unique<aligned_buffer>(chunk_ * esize_, 0);
    if (in_memory_) source_.fill(0, count_, write_buf_.data());
    setup_.buffer_alignment = write_buf_.alignment();
    setup_.lossless_expected = plug.is_lossless(spec.format.options, spec.dataset.type);
    setup_.plugin_version = plug.version();
    setup_.plugin_file = plug.file().string();
}

void case_runner::warm_up() {
    for (unsigned i = 0; i < spec_.params.warmup; ++i) {
        verification scratch;
        run_repetition(scratch);
    }
}

repetition case_runner::run_repetition(verification& v) {
    repetition rep;
    remove_previous();
    rep.write = write_phase();
    rep.resident_fraction = cache_step();
    rep.read = read_phase(v);
    return rep;
}

void case_runner::remove_previous() {
    remove_output(path_);
}

phase_sample case_runner::write_phase() {
    phase_sample t;
    const auto& opts = spec_.format.options;
    auto start = clock_reading::start();
    auto out = plug_.open_write(path_, spec_.dataset.type, count_, opts);
    if (in_memory_) {
        for (std::uint64_t first = 0; first < count_; first += chunk_)
            out->write(write_buf_.data() + first * esize_, std::min(chunk_, count_ - first));
        out->close();
        sync();
        accumulate(t, start, clock_reading::stop());
        t.metrics = out->metrics();
        return t;
    }
    accumulate(t, start, clock_reading::stop());
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
    t.metrics = out->metrics();
    return t;
}

void case_runner::sync() {
    if (spec_.params.sync == sync_mode::none || plug_.has(FB_CAP_NO_FILE)) return;
    sync_output(path_, spec_.params.sync == sync_mode::data);
}

double case_runner::cache_step() {
    if (plug_.has(FB_CAP_NO_FILE)) return -1;
    if (spec_.params.cache == cache_mode::cold) drop_cache(path_);
    return resident_fraction(path_);
}

phase_sample case_runner::read_phase(verification& v) {
    v.lossless_expected = setup_.lossless_expected;
    if (spec_.params.read == read_mode::view) return view_phase(v);
    phase_sample t;
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
        t.metrics = in->metrics();
        verify_chunk(type, write_buf_.data(), read_buf_.data(), count_, v);
        return t;
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
    t.metrics = in->metrics();
    return t;
}

// read: view (docs/methodology.md). Timed: open, the plugin's view of the
// whole payload, one load per page of it (touch_pages), and close. The
// verification reads the view in place, untimed, before close (a view is
// valid until close); nothing is copied into the runner's buffer.
phase_sample case_runner::view_phase(verification& v) {
    phase_sample t;
    const dtype type = spec_.dataset.type;
    auto start = clock_reading::start();
    auto in = plug_.open_read(path_, type, count_, spec_.format.options);
    const auto* data = static_cast<const unsigned char*>(in->view(count_));
    if (!data)
        throw plugin_error(
            plug_.id(), FB_E_UNSUPPORTED,
            fmt::format("plugin '{}' gave no zero-copy view of '{}' (read: view); use read: copy", plug_.id(),
                        path_));
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
    t.metrics = in->metrics();
    return t;
}

case_facts case_runner::facts() const {
    case_facts f;
    f.file_bytes = plug_.has(FB_CAP_NO_FILE) ? 0 : output_size(path_);
    f.peak_rss_bytes = peak_rss_bytes();
    return f;
}

} // namespace formatbench
