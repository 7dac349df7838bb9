// One case in the process that runs it, alive for the whole case: its
// buffers, its data and the plugin's state outlive each repetition, so every
// schedule measures the same thing. A repetition is split into its phases
// (remove the old file, WRITE, cache step, READ with verification) so that
// an executor may put barriers between them; with several ranks, the ranks
// of a streamed phase also meet inside it (rank_meeting), untimed. Knows
// nothing of processes, MPI, logs or reports; an executor drives it.
#pragma once

#include "host/plugin_handle.hpp"
#include "results/result.hpp"
#include "run/buffer.hpp"
#include "run/data_source.hpp"
#include "run/rank_plan.hpp"
#include "run/run_phase.hpp"
#include "run/warm_up.hpp"
#include "study/access.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace formatbench {

// What a case is set up with, learnt when it starts.
struct case_setup {
    std::size_t buffer_alignment = 0; // power of two dividing the buffers' addresses
    bool lossless_expected = false;   // the plugin claims bit-exact reads for these options
    std::string plugin_version, plugin_file;
    // How long the plugin's formatbench.prepare/1 call took (untimed work
    // before the first open: an interpreter's start); -1 without it.
    double prepare_s = -1;
    std::uint64_t payload_bytes = 0; // of all ranks; 0: the data set's count x element size
    unsigned ranks = 1;
};

// What is known when a case ends.
struct case_facts {
    std::uint64_t file_bytes = 0; // on disk after the last write (0 for no-file plugins)
    std::int64_t peak_rss_bytes = -1;
};

// Whether a case's write and read phases stream (chunk by chunk, only the
// plugin calls timed): when the widest rank's slice is larger than
// in_memory_bytes; every rank decides alike.
bool streams(const case_spec& spec, const rank_plan& plan, std::uint64_t in_memory_bytes);

// Whether, with several ranks, the ranks meet in the case's write phase
// (read false) or read phase (rank_plan::meeting): when they stream; an
// access pattern's read does not meet.
bool phase_meets(const case_spec& spec, const rank_plan& plan, std::uint64_t in_memory_bytes, bool read);

class case_runner {
public:
    // Data sets up to in_memory_bytes are generated once and written from
    // memory, so the write phase is one contiguous interval; larger ones are
    // streamed chunk by chunk and only the plugin calls are summed. With
    // several ranks and plan.meeting set, a streamed phase's ranks meet,
    // untimed, before each timed call that follows untimed work (generating
    // a chunk, verifying one), so that no rank's timed call waits for
    // another rank's untimed work (docs/methodology.md, "MPI"). The
    // plan says which elements this process writes and reads, where (one
    // rank: all of them, at the case's path). Throws for what cannot be set
    // up (memory, a bad data source).
    case_runner(const case_spec& spec, const plugin& plug, const data_source& source, rank_plan plan,
                std::uint64_t in_memory_bytes);

    const case_setup& setup() const noexcept { return setup_; }

    // Told which phase begins (run_phase.hpp), never inside a timed region:
    // warm_up before each unrecorded repetition; in a recorded one, write
    // before the write phase's clock starts, read after the cache step, and
    // verify when the data is compared after the read, its clock stopped (in
    // memory: after close; read: view, between the view and the close; a
    // streamed read is compared chunk by chunk between its timed reads and
    // says nothing). Phases called one at a time (the MPI executor's) say
    // nothing: their caller tells.
    void listen(phase_listener l) { listener_ = std::move(l); }

    // Unrecorded repetitions, run and verified: the case's warm-up, or a
    // re-warm under interleave and shuffle (run/warm_up.hpp says how many).
    void warm_up(warm_kind kind = warm_kind::start);

    // One recorded repetition: the phases below in order.
    repetition run_repetition(verification& v);

    // The phases (docs/methodology.md). Each throws plugin_error or
    // std::system_error for a failing plugin or file system. The write and
    // read phases start in the process's default floating-point environment
    // (base/fp_env.hpp) and fail when the plugin's calls change it.
    void remove_previous();                   // untimed: every write starts from no file
    phase_sample write_phase();               // open .. close, plus the study's sync
    double cache_step();                      // cache: cold drops the file's pages; residency after
    phase_sample read_phase(verification& v); // open .. close; verified untimed

    case_facts facts() const;

    // When the last write or read phase started: seconds on the steady
    // clock (CLOCK_MONOTONIC, common to the processes of one machine), so
    // that the phases of several ranks can be laid on one time line.
    double phase_started() const noexcept { return phase_started_; }

private:
    std::unique_ptr<write_stream> open_write() const;
    std::unique_ptr<read_stream> open_read() const;
    phase_sample view_phase(verification& v);
    phase_sample pattern_phase(verification& v);
    void pattern_op(read_stream& in, std::size_t k, unsigned char* into);
    void verify_op(std::size_t k, const unsigned char* got, verification& v);
    void expected_op(std::size_t k, unsigned char* out) const;
    std::pair<std::uint64_t, std::uint64_t> plane_extent() const; // outer, inner
    void poison_slots(std::size_t first, std::size_t last);
    repetition phases(verification& v, bool recorded);
    void announce(run_phase p) const {
        if (listener_) listener_(p);
    }
    void sync();
    phase_sample write_calls();
    phase_sample read_calls(verification& v);
    // After plugin calls of `phase`, with the clock stopped: throws
    // plugin_error when the plugin left the floating-point environment
    // other than the process's default (which is put back first), or wrote
    // past the end of `buffer` (its canary, buffer.hpp).
    void check_calls(const char* phase, const aligned_buffer* buffer = nullptr) const;
    // Values [first, first + n) of the data source, made between a phase's
    // plugin calls: a from_file source reads through a plugin, whose
    // libraries may change the floating-point environment as they load
    // (HDF5's LZF filter); the default is put back, so that the check after
    // the phase's next call blames only that call.
    void fill(std::uint64_t first, std::uint64_t n, unsigned char* out) const;
    void overran(const char* phase, std::size_t bytes, std::uint64_t given) const;
    // The guards after the slots of operations [first, last).
    void check_slots(std::size_t first, std::size_t last) const;

    const case_spec& spec_;
    const plugin& plug_;
    const data_source& source_;
    rank_plan plan_;
    std::size_t esize_;
    std::uint64_t count_;      // elements this process writes
    std::uint64_t read_count_; // and reads back (another rank's, with read_rank_shift)
    std::uint64_t chunk_ = 1;
    bool in_memory_ = true;
    bool write_meets_ = false, read_meets_ = false; // phase_meets
    // FORMATBENCH_TEST_PIECE_DELAY_MS (docs/testing.md): slept in the
    // untimed work of each streamed chunk; 0 without it.
    std::chrono::milliseconds piece_delay_{0};
    aligned_buffer write_buf_, read_buf_;
    // Streamed: one chunk of the expected values. In memory, when this
    // process reads back what another rank wrote: all of them.
    std::unique_ptr<aligned_buffer> expected_;
    // The shape and O_DIRECT as the plugin is told (ABI 1.2).
    open_layout write_layout_, read_layout_;
    // An access pattern's operations (study/access.hpp), the buffer their
    // data lands in (one slot per operation, page-aligned, a batch of slots
    // verified together with the clock stopped), the expected values of one
    // operation, and what a pair of clock readings costs here. Each slot
    // ends in a guard of at least aligned_buffer::guard_bytes, checked after
    // each batch (check_slots).
    access_geometry access_;
    std::vector<access_range> ranges_;
    std::vector<std::uint64_t> planes_;
    std::uint64_t op_elements_ = 0, slot_bytes_ = 0, slots_ = 0;
    aligned_buffer pattern_buf_, pattern_expected_;
    double clock_cost_ns_ = 0;
    case_setup setup_;
    double phase_started_ = 0;
    phase_listener listener_;
    bool announce_verify_ = false; // inside a recorded repetition's read phase
};

// Loads one byte of every page of [p, p + n): what read: view times beyond
// the view itself, so that the data is resident and mapped when the clock
// stops (a mapping's page faults would otherwise fall into the untimed
// verification). The bytes go to a volatile, so the loads are not
// optimised away.
void touch_pages(const unsigned char* p, std::uint64_t n);

} // namespace formatbench
