// One case's repetitions, timed as docs/methodology.md describes.
#include "run/case_runner.hpp"

#include "base/error.hpp"
#include "base/fp_env.hpp"
#include "results/stats.hpp"
#include "run/communicator.hpp"
#include "run/file_ops.hpp"
#include "run/system_info.hpp"
#include "run/timing.hpp"
#include "run/verify.hpp"
#include "run/warm_up.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>
#include <vector>

namespace formatbench {

namespace {
volatile unsigned char touched_sink;

// Fills `into` before a read with the complement of the bytes the read
// should deliver (`expected`): a plugin whose read reports success without
// delivering the data leaves every byte differing from the data, whatever
// the data are (a fixed pattern would pass on data made of that pattern).
void poison(unsigned char* into, const unsigned char* expected, std::uint64_t bytes) {
    for (std::uint64_t i = 0; i < bytes; ++i)
        into[i] = static_cast<unsigned char>(~expected[i]);
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

namespace {

double steady_seconds(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(t.time_since_epoch()).count();
}

// The median cost of a pair of back-to-back steady-clock readings, in ns:
// what every per-operation latency carries on top of the operation.
double clock_pair_cost_ns() {
    constexpr int pairs = 1001;
    std::vector<double> d;
    d.reserve(pairs);
    for (int i = 0; i < pairs; ++i) {
        const auto a = std::chrono::steady_clock::now();
        const auto b = std::chrono::steady_clock::now();
        d.push_back(std::chrono::duration<double, std::nano>(b - a).count());
    }
    std::nth_element(d.begin(), d.begin() + pairs / 2, d.end());
    return d[pairs / 2];
}

// Operations verified together: their data is kept until the clock stops.
constexpr std::uint64_t pattern_batch_bytes = 64ull << 20;
constexpr std::uint64_t direct_alignment = 4096; // FB_OPEN_DIRECT's promise for buffers

// The meetings of one streamed phase's ranks (rank_meeting), never inside
// a timed region. Round k of a phase: every rank calls ready(), saying
// whether it makes a transfer after it (its chunk k); the rounds go on
// until one in which no rank does, which precedes the close (finish()), so
// every rank makes the same number of calls (the most chunks of any rank,
// plus one) whatever its own number of chunks. A rank whose phase throws
// while rounds remain makes one more call, saying so, and every rank then
// stops at that round: no rank waits for one that has left. Null meeting:
// one rank, or a phase that does not meet; every call returns at once.
class piece_meetings {
public:
    explicit piece_meetings(rank_meeting* m) noexcept : meeting_(m), open_(m != nullptr) {}
    piece_meetings(const piece_meetings&) = delete;
    piece_meetings& operator=(const piece_meetings&) = delete;
    ~piece_meetings() {
        if (!open_) return;
        open_ = false;
        try {
            meeting_->meet(rank_meeting::failed);
        } catch (...) {
            // The phase is failing already; its own error is the one to report.
        }
    }

    // Returns when every rank is ready; throws when another rank's phase
    // failed.
    void ready(bool more) {
        if (!open_) return;
        const unsigned all = meeting_->meet(more ? rank_meeting::more : 0);
        if (all & rank_meeting::failed) {
            open_ = false;
            throw std::runtime_error(another_rank_failed);
        }
        if (!(all & rank_meeting::more)) open_ = false;
    }

    // The rounds of the other ranks' remaining transfers, and the one before
    // the close.
    void finish() {
        while (open_)
            ready(false);
    }

private:
    rank_meeting* meeting_;
    bool open_;
};

// The test hook FORMATBENCH_TEST_PIECE_DELAY_MS (docs/testing.md): the
// milliseconds to sleep in each streamed chunk's untimed work, on rank
// FORMATBENCH_TEST_PIECE_DELAY_RANK (every rank when unset).
std::chrono::milliseconds test_piece_delay(unsigned rank) {
    const auto number = [](const char* name) -> long long {
        const char* text = std::getenv(name);
        if (!text || !*text) return -1;
        const std::string_view v(text);
        long long n = -1;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc() || end != v.data() + v.size() || n < 0 || n > 3'600'000)
            throw usage_error(fmt::format("{}={}: expected a whole number (0 to 3600000)", name, v));
        return n;
    };
    const long long ms = number("FORMATBENCH_TEST_PIECE_DELAY_MS");
    if (ms <= 0) return std::chrono::milliseconds(0);
    const long long only = number("FORMATBENCH_TEST_PIECE_DELAY_RANK");
    if (only >= 0 && static_cast<unsigned long long>(only) != rank) return std::chrono::milliseconds(0);
    return std::chrono::milliseconds(ms);
}

} // namespace

bool streams(const case_spec& spec, const rank_plan& plan, std::uint64_t in_memory_bytes) {
    const std::uint64_t largest = std::max({plan.widest, plan.write.count, plan.read.count});
    return largest * dtype_size(spec.dataset.type) > in_memory_bytes;
}

bool phase_meets(const case_spec& spec, const rank_plan& plan, std::uint64_t in_memory_bytes, bool read) {
    return plan.where.size > 1 && (!read || spec.params.access == access_mode::whole) &&
           streams(spec, plan, in_memory_bytes);
}

case_runner::case_runner(const case_spec& spec, const plugin& plug, const data_source& source, rank_plan plan,
                         std::uint64_t in_memory_bytes)
    : spec_(spec), plug_(plug), source_(source), plan_(std::move(plan)),
      esize_(dtype_size(spec.dataset.type)), count_(plan_.write.count), read_count_(plan_.read.count) {
    const std::uint64_t largest = std::max(count_, read_count_);
    const std::uint64_t payload = largest * esize_;
    std::uint64_t chunk_bytes = spec.params.chunk_bytes ? spec.params.chunk_bytes : payload;
    chunk_ = std::max<std::uint64_t>(1, chunk_bytes / esize_);
    if (chunk_ > largest && largest > 0) chunk_ = largest;
    in_memory_ = !streams(spec, plan_, in_memory_bytes);
    write_meets_ = plan_.meeting && phase_meets(spec, plan_, in_memory_bytes, false);
    read_meets_ = plan_.meeting && phase_meets(spec, plan_, in_memory_bytes, true);
    if (!in_memory_) piece_delay_ = test_piece_delay(plan_.where.rank);
    write_buf_ = aligned_buffer((in_memory_ ? count_ : chunk_) * esize_, spec.params.align_offset);
    // A pattern's operations read into pattern_buf_ (below): no buffer for
    // the whole read, which for random 4 KiB reads of a large file would
    // be most of the memory the case touches.
    const bool pattern = spec.params.access != access_mode::whole;
    read_buf_ =
        aligned_buffer(pattern ? 0 : (in_memory_ ? read_count_ : chunk_) * esize_, spec.params.align_offset);
    if (!in_memory_) {
        expected_ = std::make_unique<aligned_buffer>(chunk_ * esize_, 0);
    } else if (!pattern && plan_.read.offset != plan_.write.offset) {
        expected_ = std::make_unique<aligned_buffer>(read_count_ * esize_, 0);
        source_.fill(plan_.read.offset, read_count_, expected_->data());
    }
    if (in_memory_) source_.fill(plan_.write.offset, count_, write_buf_.data());
    // A shape describes the whole data set: a rank's slice of it (scaling:
    // strong) is a flat array.
    if (!spec.dataset.shape.empty() && count_ == spec.dataset.count && read_count_ == spec.dataset.count) {
        write_layout_.shape = spec.dataset.shape;
        read_layout_.shape = spec.dataset.shape;
    }
    read_layout_.direct = spec.params.direct;
    if (spec.params.access != access_mode::whole) {
        dataset_spec slice = spec.dataset;
        slice.count = read_count_;
        const access_check a = check_access(spec.params, slice);
        if (!a.error.empty()) throw usage_error(a.error);
        access_ = a.geometry;
        if (access_.mode == access_mode::plane) {
            if (read_layout_.shape.empty())
                throw usage_error("access: plane needs the data set's shape, which a rank's slice of it "
                                  "(scaling: strong) does not have");
            planes_ = access_planes(access_);
            op_elements_ = read_count_ / access_.shape[access_.axis];
        } else {
            ranges_ = access_ranges(access_, read_count_);
            op_elements_ = access_.block;
        }
        const std::uint64_t op_bytes = op_elements_ * esize_;
        slot_bytes_ = (op_bytes + aligned_buffer::guard_bytes + direct_alignment - 1) / direct_alignment *
                      direct_alignment;
        const std::uint64_t ops = std::max<std::uint64_t>(1, access_.ops);
        slots_ =
            std::clamp<std::uint64_t>(pattern_batch_bytes / std::max<std::uint64_t>(1, slot_bytes_), 1, ops);
        pattern_buf_ = aligned_buffer(slots_ * slot_bytes_, 0);
        pattern_expected_ = aligned_buffer(op_bytes, 0);
        clock_cost_ns_ = clock_pair_cost_ns();
    }
    setup_.buffer_alignment = write_buf_.alignment();
    setup_.lossless_expected = plug.is_lossless(spec.format.options, spec.dataset.type);
    setup_.plugin_version = plug.version();
    setup_.plugin_file = plug.file().string();
    // The plugin's once-per-process work (formatbench.prepare/1) comes
    // last, after the buffers and the data, before any open and with no
    // phase's clock running: its time is recorded apart from the samples.
    const auto t0 = std::chrono::steady_clock::now();
    if (plug.prepare(spec.format.options, spec.dataset.type))
        setup_.prepare_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void case_runner::warm_up(warm_kind kind) {
    double spent = 0;
    for (unsigned i = 0; warm_up_continues(kind, i, spent, spec_.params); ++i) {
        announce(run_phase::warm_up);
        verification scratch;
        const repetition rep = phases(scratch, false);
        spent += rep.write.wall_s + rep.read.wall_s;
    }
}

repetition case_runner::run_repetition(verification& v) {
    return phases(v, true);
}

repetition case_runner::phases(verification& v, bool recorded) {
    repetition rep;
    remove_previous();
    if (recorded) announce(run_phase::write);
    rep.write = write_phase();
    rep.resident_fraction = cache_step();
    if (recorded) announce(run_phase::read);
    announce_verify_ = recorded; // (a phase that throws ends the case)
    rep.read = read_phase(v);
    announce_verify_ = false;
    return rep;
}

void case_runner::remove_previous() {
    if (!plan_.remove_path.empty()) remove_output(plan_.remove_path);
}

std::unique_ptr<write_stream> case_runner::open_write() const {
    const auto& opts = spec_.format.options;
    if (plan_.mpi_comm)
        return plug_.open_write_mpi(plan_.write_path, spec_.dataset.type, plan_.mpi_comm,
                                    plan_.shared ? plan_.write.offset : 0, count_,
                                    plan_.shared ? plan_.total : count_, opts, write_layout_);
    if (plan_.shared)
        return plug_.open_write_part(plan_.write_path, spec_.dataset.type, plan_.write.offset, count_,
                                     plan_.total, opts, write_layout_);
    return plug_.open_write(plan_.write_path, spec_.dataset.type, count_, opts, write_layout_);
}

std::unique_ptr<read_stream> case_runner::open_read() const {
    const auto& opts = spec_.format.options;
    if (plan_.mpi_comm)
        return plug_.open_read_mpi(plan_.read_path, spec_.dataset.type, plan_.mpi_comm,
                                   plan_.shared ? plan_.read.offset : 0, read_count_,
                                   plan_.shared ? plan_.total : read_count_, opts, read_layout_);
    if (plan_.shared)
        return plug_.open_read_part(plan_.read_path, spec_.dataset.type, plan_.read.offset, read_count_,
                                    plan_.total, opts, read_layout_);
    return plug_.open_read(plan_.read_path, spec_.dataset.type, read_count_, opts, read_layout_);
}

phase_sample case_runner::write_phase() {
    detail::restore_default_fp_environment();
    phase_sample t = write_calls();
    check_calls("write", &write_buf_);
    return t;
}

void case_runner::fill(std::uint64_t first, std::uint64_t n, unsigned char* out) const {
    source_.fill(first, n, out);
    detail::restore_default_fp_environment();
}

void case_runner::check_calls(const char* phase, const aligned_buffer* buffer) const {
    if (buffer)
        if (const std::size_t over = buffer->overrun()) overran(phase, over, buffer->size());
    const detail::fp_environment now = detail::current_fp_environment();
    if (!detail::fp_controls_differ(now)) return;
    const std::string change = detail::describe_fp_change(now);
    detail::restore_default_fp_environment();
    throw plugin_error(
        plug_.id(), FB_E_INTERNAL,
        fmt::format("plugin '{}' changed the floating-point environment during its {} phase and left it "
                    "changed: {}. Everything computed after it in the process (the data, the "
                    "verification, the plugin's own conversions) would depend on it; a plugin must leave "
                    "the environment as it found it (a library it loads, or one built with -ffast-math, "
                    "may be the cause)",
                    plug_.id(), phase, change));
}

void case_runner::overran(const char* phase, std::size_t bytes, std::uint64_t given) const {
    throw plugin_error(
        plug_.id(), FB_E_INTERNAL,
        fmt::format("plugin '{}' wrote past the end of a buffer the runner gave it in its {} phase: {} "
                    "byte(s) past its {} bytes (caught by the guard after every buffer the runner hands to "
                    "a plugin); a plugin must write only the values asked for",
                    plug_.id(), phase, bytes, given));
}

void case_runner::check_slots(std::size_t first, std::size_t last) const {
    for (std::size_t k = first; k < last; ++k) {
        const std::uint64_t bytes =
            (access_.mode == access_mode::plane ? op_elements_ : ranges_[k].count) * esize_;
        const unsigned char* slot = pattern_buf_.data() + (k - first) * slot_bytes_;
        if (const std::size_t over = detail::canary_overrun(slot + bytes, slot_bytes_ - bytes))
            overran("read", over, bytes);
    }
}

phase_sample case_runner::write_calls() {
    phase_sample t;
    piece_meetings ranks(write_meets_ ? plan_.meeting : nullptr);
    auto start = clock_reading::start();
    phase_started_ = steady_seconds(start.wall);
    auto out = open_write();
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
    check_calls("write");
    for (std::uint64_t first = 0; first < count_; first += chunk_) {
        std::uint64_t n = std::min(chunk_, count_ - first);
        fill(plan_.write.offset + first, n, write_buf_.data()); // untimed
        if (piece_delay_.count()) std::this_thread::sleep_for(piece_delay_);
        ranks.ready(true);
        start = clock_reading::start();
        out->write(write_buf_.data(), n);
        accumulate(t, start, clock_reading::stop());
        check_calls("write", &write_buf_);
    }
    ranks.finish();
    start = clock_reading::start();
    out->close();
    sync();
    accumulate(t, start, clock_reading::stop());
    t.metrics = out->metrics();
    return t;
}

void case_runner::sync() {
    if (spec_.params.sync == sync_mode::none || plug_.has(FB_CAP_NO_FILE)) return;
    sync_output(plan_.write_path, spec_.params.sync == sync_mode::data);
}

double case_runner::cache_step() {
    if (plug_.has(FB_CAP_NO_FILE)) return -1;
    if (spec_.params.cache == cache_mode::cold) drop_cache(plan_.read_path);
    return resident_fraction(plan_.read_path);
}

phase_sample case_runner::read_phase(verification& v) {
    detail::restore_default_fp_environment();
    phase_sample t = read_calls(v);
    check_calls("read", &read_buf_);
    return t;
}

phase_sample case_runner::read_calls(verification& v) {
    v.lossless_expected = setup_.lossless_expected;
    v.tolerance = spec_.format.tolerance;
    if (spec_.params.read == read_mode::view) return view_phase(v);
    if (access_.mode != access_mode::whole) return pattern_phase(v);
    phase_sample t;
    const dtype type = spec_.dataset.type;
    // Streamed: a chunk's expected values are made, and the buffer poisoned
    // with their complement, before the meeting that precedes its read.
    const auto prepare = [&](std::uint64_t first) {
        const std::uint64_t n = std::min(chunk_, read_count_ - first);
        fill(plan_.read.offset + first, n, expected_->data()); // untimed
        poison(read_buf_.data(), expected_->data(), n * esize_);
    };
    if (in_memory_)
        poison(read_buf_.data(), expected_ ? expected_->data() : write_buf_.data(), read_count_ * esize_);
    else if (read_count_ > 0)
        prepare(0);
    piece_meetings ranks(read_meets_ ? plan_.meeting : nullptr);
    ranks.ready(read_count_ > 0); // round 0 precedes the open and chunk 0
    auto start = clock_reading::start();
    phase_started_ = steady_seconds(start.wall);
    auto in = open_read();
    if (in_memory_) {
        for (std::uint64_t first = 0; first < read_count_; first += chunk_)
            in->read(read_buf_.data() + first * esize_, std::min(chunk_, read_count_ - first));
        in->close();
        accumulate(t, start, clock_reading::stop());
        check_calls("read", &read_buf_);
        t.metrics = in->metrics();
        if (announce_verify_) announce(run_phase::verify);
        verify_chunk(type, expected_ ? expected_->data() : write_buf_.data(), read_buf_.data(), read_count_,
                     plan_.read.offset, v);
        return t;
    }
    accumulate(t, start, clock_reading::stop());
    check_calls("read");
    for (std::uint64_t first = 0; first < read_count_; first += chunk_) {
        std::uint64_t n = std::min(chunk_, read_count_ - first);
        if (first > 0) {
            prepare(first);
            ranks.ready(true);
        }
        start = clock_reading::start();
        in->read(read_buf_.data(), n);
        accumulate(t, start, clock_reading::stop());
        check_calls("read", &read_buf_);
        verify_chunk(type, expected_->data(), read_buf_.data(), n, plan_.read.offset + first, v);
        if (piece_delay_.count()) std::this_thread::sleep_for(piece_delay_);
    }
    ranks.finish();
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
    piece_meetings ranks(read_meets_ ? plan_.meeting : nullptr);
    auto start = clock_reading::start();
    phase_started_ = steady_seconds(start.wall);
    auto in = open_read();
    const auto* data = static_cast<const unsigned char*>(in->view(read_count_));
    if (!data)
        throw plugin_error(
            plug_.id(), FB_E_UNSUPPORTED,
            fmt::format("plugin '{}' gave no zero-copy view of '{}' (read: view); use read: copy", plug_.id(),
                        plan_.read_path));
    touch_pages(data, read_count_ * esize_);
    accumulate(t, start, clock_reading::stop());
    check_calls("read");
    if (in_memory_) {
        if (announce_verify_) announce(run_phase::verify);
        verify_chunk(type, expected_ ? expected_->data() : write_buf_.data(), data, read_count_,
                     plan_.read.offset, v);
    } else {
        for (std::uint64_t first = 0; first < read_count_; first += chunk_) {
            std::uint64_t n = std::min(chunk_, read_count_ - first);
            fill(plan_.read.offset + first, n, expected_->data()); // untimed
            verify_chunk(type, expected_->data(), data + first * esize_, n, plan_.read.offset + first, v);
            if (piece_delay_.count()) std::this_thread::sleep_for(piece_delay_);
        }
    }
    ranks.finish(); // one round: every rank has verified before any closes
    start = clock_reading::start();
    in->close();
    accumulate(t, start, clock_reading::stop());
    t.metrics = in->metrics();
    return t;
}

// An access pattern's READ phase (docs/methodology.md "Access patterns").
// Timed: open, every operation, close. Each operation is also timed on its
// own, with nothing but the plugin call between its two clock readings.
// The operations' data lands in slots of one buffer; when the slots are
// full (or the operations done) the phase's clock stops, the batch is
// verified against regenerated values, the next batch's slots are poisoned
// (poison_slots), and the clock goes on, so neither is ever timed.
phase_sample case_runner::pattern_phase(verification& v) {
    using clock = std::chrono::steady_clock;
    phase_sample t;
    const std::size_t n = access_.mode == access_mode::plane ? planes_.size() : ranges_.size();
    std::vector<double> latencies;
    latencies.reserve(n);
    std::uint64_t bytes = 0;
    poison_slots(0, std::min<std::size_t>(n, slots_));
    auto start = clock_reading::start();
    phase_started_ = steady_seconds(start.wall);
    auto in = open_read();
    for (std::size_t first = 0; first < n; first += slots_) {
        const std::size_t last = std::min<std::size_t>(n, first + slots_);
        for (std::size_t k = first; k < last; ++k) {
            unsigned char* into = pattern_buf_.data() + (k - first) * slot_bytes_;
            const auto a = clock::now();
            pattern_op(*in, k, into);
            const auto b = clock::now();
            latencies.push_back(std::chrono::duration<double, std::nano>(b - a).count());
        }
        accumulate(t, start, clock_reading::stop());
        check_calls("read");
        check_slots(first, last);
        if (announce_verify_ && first == 0) announce(run_phase::verify);
        for (std::size_t k = first; k < last; ++k) {
            const unsigned char* got = pattern_buf_.data() + (k - first) * slot_bytes_;
            verify_op(k, got, v);
            bytes += (access_.mode == access_mode::plane ? op_elements_ : ranges_[k].count) * esize_;
        }
        poison_slots(last, std::min<std::size_t>(n, last + slots_));
        start = clock_reading::start();
    }
    in->close();
    accumulate(t, start, clock_reading::stop());
    t.metrics = in->metrics();
    t.latency = summarize_latencies(std::move(latencies), bytes, clock_cost_ns_);
    return t;
}

void case_runner::pattern_op(read_stream& in, std::size_t k, unsigned char* into) {
    if (access_.mode != access_mode::plane) {
        in.read_at(ranges_[k].offset, into, ranges_[k].count);
        return;
    }
    std::vector<std::uint64_t> start(access_.shape.size(), 0), count = access_.shape;
    start[access_.axis] = planes_[k];
    count[access_.axis] = 1;
    in.read_box(start, count, into);
}

// The expected values of operation k, regenerated run by run, as the
// operation delivers them: a range's elements, or a plane orthogonal to
// axis a at index i, which is, for each of the prod(shape[..a]) outer
// positions o, the prod(shape[a+1..]) contiguous elements from
// (o x shape[a] + i) x inner.
void case_runner::expected_op(std::size_t k, unsigned char* out) const {
    if (access_.mode != access_mode::plane) {
        fill(plan_.read.offset + ranges_[k].offset, ranges_[k].count, out);
        return;
    }
    const auto [outer, inner] = plane_extent();
    for (std::uint64_t o = 0; o < outer; ++o)
        fill(plan_.read.offset + (o * access_.shape[access_.axis] + planes_[k]) * inner, inner,
             out + o * inner * esize_);
}

std::pair<std::uint64_t, std::uint64_t> case_runner::plane_extent() const {
    const auto& shape = access_.shape;
    std::uint64_t inner = 1, outer = 1;
    for (std::size_t j = access_.axis + 1; j < shape.size(); ++j)
        inner *= shape[j];
    for (std::size_t j = 0; j < access_.axis; ++j)
        outer *= shape[j];
    return {outer, inner};
}

// The slots of operations [first, last) get the complement of what each
// should deliver (poison above).
void case_runner::poison_slots(std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
        unsigned char* slot = pattern_buf_.data() + (k - first) * slot_bytes_;
        expected_op(k, slot);
        const std::uint64_t bytes =
            (access_.mode == access_mode::plane ? op_elements_ : ranges_[k].count) * esize_;
        poison(slot, slot, bytes);
        detail::fill_canary(slot + bytes, slot_bytes_ - bytes);
    }
}

void case_runner::verify_op(std::size_t k, const unsigned char* got, verification& v) {
    const dtype type = spec_.dataset.type;
    unsigned char* want = pattern_expected_.data();
    expected_op(k, want);
    if (access_.mode != access_mode::plane) {
        const access_range& r = ranges_[k];
        verify_chunk(type, want, got, r.count, plan_.read.offset + r.offset, v);
        return;
    }
    const auto [outer, inner] = plane_extent();
    for (std::uint64_t o = 0; o < outer; ++o) {
        const std::uint64_t first = (o * access_.shape[access_.axis] + planes_[k]) * inner;
        verify_chunk(type, want + o * inner * esize_, got + o * inner * esize_, inner,
                     plan_.read.offset + first, v);
    }
}

case_facts case_runner::facts() const {
    case_facts f;
    f.file_bytes = plug_.has(FB_CAP_NO_FILE) ? 0 : output_size(plan_.write_path);
    f.peak_rss_bytes = peak_rss_bytes();
    return f;
}

} // namespace formatbench
