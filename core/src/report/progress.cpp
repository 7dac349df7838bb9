// Progress output (progress.hpp). In bar mode a small thread owned by the
// observer redraws the status line once a second, so a long repetition still
// shows its time going up and the phase it is in (writing, reading, ...);
// every observer call and the thread take one mutex.
// The line is cleared when the run ends (before the console table prints,
// also after SIGINT: the run then ends normally) and when the observer is
// destroyed (a run that threw).
#include "report/progress.hpp"

#include "base/colour.hpp"
#include "base/dtype.hpp"
#include "base/text.hpp"
#include "report/eta.hpp"
#include "report/units.hpp"
#include "results/stats.hpp"
#include "study/plan.hpp"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace formatbench {
namespace {

using clock_type = std::chrono::steady_clock;

// A case that has run this long says so in the status line.
constexpr double slow_case_s = 5;

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

// A wall-clock span for people: "4.2 s", "38 s", "2 min 05 s", "1 h 02 min".
std::string format_span(double s) {
    if (!std::isfinite(s) || s < 0) return "?";
    if (s < 10) return fmt::format("{:.1f} s", s);
    if (s < 60) return fmt::format("{:.0f} s", s);
    const auto whole = static_cast<long long>(std::llround(s));
    if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
    return fmt::format("{} h {:02} min", whole / 3600, whole % 3600 / 60);
}

// Columns of standard error: the terminal's (TIOCGWINSZ, which fails on a
// file or a pipe), else COLUMNS when set, else `otherwise`.
std::size_t stderr_columns(std::size_t otherwise) {
    winsize ws{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    if (const char* c = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(c, &end, 10);
        if (end != c && *end == '\0' && n > 0) return static_cast<std::size_t>(n);
    }
    return otherwise;
}

// The status line's width: 80 columns when nothing says otherwise.
std::size_t terminal_columns() {
    return stderr_columns(80);
}

// Terminal columns of UTF-8 `s`: one per code point.
std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s)
        n += (ch & 0xC0) != 0x80;
    return n;
}

// The first `columns` terminal columns of UTF-8 `s` (one per code point).
std::string first_columns(const std::string& s, std::size_t columns) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
        if (n++ == columns) return s.substr(0, i);
    }
    return s;
}

// A progress line in parts, plain text: counter, " ", label, figures,
// status, clock (each part but the counter brings its own leading spaces).
struct line_parts {
    std::string counter, label, figures, status, clock;
    std::size_t label_keep = 0;  // the label's first columns (the format) go last
    std::size_t status_keep = 0; // the status word before a failure's message

    std::size_t width() const {
        return display_width(counter) + 1 + display_width(label) + display_width(figures) +
               display_width(status) + display_width(clock);
    }
};

// Shortens `s` by at least `over` columns, not below its first `keep`:
// what is cut is marked "..." when the mark fits.
void shorten(std::string& s, std::size_t keep, std::size_t over) {
    const std::size_t w = display_width(s);
    if (over == 0 || w <= keep) return;
    if (w >= keep + over + 3)
        s = first_columns(s, w - over - 3) + "...";
    else
        s = first_columns(s, keep);
}

// Fits a line into `width` columns (0: no limit), one column left free (a
// line that fills the terminal wraps on some). What gives way, in order:
// the label after its format, the clock, a failure's message, the figures
// (whole), then the format. A figure is never cut.
void fit(line_parts& p, std::size_t width) {
    if (width == 0) return;
    const std::size_t room = width - 1;
    auto over = [&] { return p.width() > room ? p.width() - room : 0; };
    // The clock goes first when the label alone cannot make the room.
    if (display_width(p.label) < p.label_keep + over()) p.clock.clear();
    shorten(p.label, p.label_keep, over());
    shorten(p.status, p.status_keep, over());
    if (over()) p.figures.clear();
    shorten(p.label, 0, over());
}

std::uint64_t case_bytes(const case_spec& c) {
    return c.dataset.count * dtype_size(c.dataset.type);
}

// The case as describe_case says it, its format first ("raw | f64-1e6 |
// chunk whole | warm | sync none"): a line cut to the terminal's width
// still names the format.
std::string progress_label(const case_spec& c) {
    const std::string d = describe_case(c), lead = c.dataset.name + " | " + c.format.label;
    if (d.rfind(lead, 0) != 0) return d;
    return c.format.label + " | " + c.dataset.name + d.substr(lead.size());
}

// The width lines printed on standard error may take: no limit when
// nothing says one (a file or a pipe does not wrap).
std::size_t line_width() {
    return stderr_columns(0);
}

class progress final : public observer {
public:
    explicit progress(const progress_options& o) : options_(o) {}
    ~progress() override { stop_ticking(); }

    std::string name() const override { return "progress"; }

    void begin(const study_result& run, std::size_t, std::size_t) override {
        std::lock_guard lock(mutex_);
        total_ = run.spec.cases.size();
        for (const case_spec& c : run.spec.cases)
            remaining_[c.index] = {case_bytes(c), c.format.label, 0};
        start_ = last_event_ = clock_type::now();
        if (options_.mode == progress_mode::bar) {
            draw();
            ticker_ = std::thread([this] { tick(); });
        }
    }

    void case_started(const case_spec& c) override {
        std::lock_guard lock(mutex_);
        // The time since the last event was the set-up of the case started
        // just before (interleave and shuffle start a batch of cases), else
        // the gap between cases, which is no case's.
        if (started_last_)
            busy_[*started_last_] += take_interval();
        else
            take_interval();
        started_last_ = c.index;
        active_[c.index] = {progress_label(c), clock_type::now(), 0, c.params.repeat};
        shown_ = c.index;
        draw();
    }

    // Only noted: the status line shows it at its next redraw (the tick,
    // at least once a second), so the runner's process does not draw on the
    // terminal as a timed phase of a forked worker starts.
    void phase_started(const case_spec& c, run_phase phase, std::size_t repetition) override {
        if (options_.mode != progress_mode::bar) return;
        std::lock_guard lock(mutex_);
        if (auto a = active_.find(c.index); a != active_.end()) {
            a->second.phase = phase;
            a->second.phase_repetition = repetition;
            a->second.in_phase = true;
        }
        shown_ = c.index;
    }

    void repetition_done(const case_result& so_far) override {
        std::lock_guard lock(mutex_);
        const std::size_t i = so_far.spec.index;
        busy_[i] += take_interval(); // the runner just ran this case's repetition
        started_last_.reset();
        auto a = active_.find(i);
        if (a != active_.end()) a->second.in_phase = false; // until the next one begins
        if (a != active_.end() && !so_far.samples.empty()) {
            // The runner's rule (run/runner.cpp): a case ends once it has
            // `repeat` samples and `min_time` of recorded write+read. One
            // sample more each call: summed as they come (a case can have
            // 10^5 samples under min_time; summing all each time is quadratic).
            active_case& c = a->second;
            const repetition& last = so_far.samples.back();
            c.recorded_s += last.write.wall_s + last.read.wall_s;
            c.reps = so_far.samples.size();
            c.finishing = so_far.spec.params.repeat > 0 && c.reps >= so_far.spec.params.repeat &&
                          c.recorded_s >= so_far.spec.params.min_time;
        }
        shown_ = i;
        if (options_.verbose && !so_far.samples.empty()) {
            const repetition& rep = so_far.samples.back();
            const unsigned repeat = so_far.spec.params.repeat;
            line_parts p = parts_of(so_far.spec);
            p.figures = fmt::format("  repetition {}{}: write {} read {}", so_far.samples.size(),
                                    repeat > 0 ? fmt::format("/{}", repeat) : std::string(),
                                    detail::format_duration(rep.write.wall_s),
                                    detail::format_duration(rep.read.wall_s));
            print_line(p, tone::good);
        }
        draw(options_.verbose);
    }

    void case_finished(const case_result& r, bool resumed) override {
        std::lock_guard lock(mutex_);
        remaining_.erase(r.spec.index);
        active_.erase(r.spec.index);
        if (resumed) return;
        finished_.push_back({case_bytes(r.spec), busy_[r.spec.index] + take_interval(), r.spec.format.label});
        busy_.erase(r.spec.index);
        started_last_.reset();
        if (options_.mode == progress_mode::none) return;
        line_parts p = parts_of(r.spec);
        if (!r.samples.empty())
            p.figures = fmt::format("  write {} read {}", detail::format_duration(r.figures.write.median_s),
                                    detail::format_duration(r.figures.read.median_s));
        const bool ok = r.status == case_status::ok;
        p.status = "  " + (ok ? std::string("ok")
                              : escape_line(fmt::format("{}: {}", to_string(r.status), r.error)));
        p.status_keep = 2 + (ok ? 2 : display_width(std::string(to_string(r.status))));
        p.clock = fmt::format("  ({})", clock_text());
        print_line(p, ok ? tone::good : tone::bad);
        draw();
    }

    void end(const run_outcome&) override { stop_ticking(); }

private:
    struct active_case {
        std::string label;
        clock_type::time_point started;
        std::size_t reps = 0;   // recorded repetitions done
        unsigned repeat = 0;    // recorded repetitions asked for (at least)
        double recorded_s = 0;  // write + read wall time of its samples
        bool finishing = false; // enough samples: the case is ending (clean-up)
        bool in_phase = false;  // a phase was announced since the last repetition ended
        run_phase phase = run_phase::warm_up;
        std::size_t phase_repetition = 0; // its recorded repetition's index (0-based)
    };

    // Seconds since the last event, which is now; the caller holds the mutex.
    double take_interval() {
        const auto now = clock_type::now();
        const double s = std::chrono::duration<double>(now - last_event_).count();
        last_event_ = now;
        return s;
    }

    // Where a case is: "set-up and warm-up" before its first phase,
    // "warm-up", "repetition 3/5 writing" (reading, verifying; warm-up for a
    // re-warm), "repetition 3/5" between phases, "finishing" after the last.
    static std::string where(const active_case& c) {
        if (c.finishing) return "finishing";
        if (c.in_phase && c.phase == run_phase::warm_up && c.phase_repetition == 0) return "warm-up";
        const std::size_t r = (c.in_phase ? c.phase_repetition : c.reps) + 1;
        if (!c.in_phase && c.reps == 0) return "set-up and warm-up";
        std::string out =
            fmt::format("repetition {}{}", r, r <= c.repeat ? fmt::format("/{}", c.repeat) : "");
        if (c.in_phase) out += fmt::format(" {}", phase_word(c.phase));
        return out;
    }

    static const char* phase_word(run_phase p) {
        switch (p) {
        case run_phase::warm_up: return "warm-up";
        case run_phase::write: return "writing";
        case run_phase::read: return "reading";
        case run_phase::verify: return "verifying";
        }
        return "";
    }

    // A line's counter and label; the caller adds the rest.
    line_parts parts_of(const case_spec& c) const {
        line_parts p;
        p.counter = fmt::format("[{}/{}]", c.index + 1, total_);
        p.label = escape_line(progress_label(c));
        p.label_keep = display_width(escape_line(c.format.label));
        return p;
    }

    // "4.2 s elapsed, ETA 11 s"; the caller holds the mutex.
    std::string clock_text() const {
        // A running case counts down from its estimate: the time it has had
        // its turn of the runner so far (busy_, and since the last event
        // when it is the case the runner works on).
        std::vector<pending_case> left;
        for (const auto& [i, c] : remaining_) {
            left.push_back(c);
            if (const auto b = busy_.find(i); b != busy_.end()) left.back().running_s = b->second;
            if (shown_ == i && active_.count(i)) left.back().running_s += seconds_since(last_event_);
        }
        const double spent = seconds_since(start_);
        const double eta = estimate_remaining_s(finished_, left);
        return fmt::format("{} elapsed, ETA {}", format_span(spent),
                           std::isnan(eta) ? "?" : format_span(eta));
    }

    // A finished-case or repetition line, fitted to the width; in bar mode
    // above the bar, which is drawn again by the caller. The parts are
    // already escaped; the status is painted in `status_tone`.
    void print_line(line_parts p, tone status_tone) {
        fit(p, line_width());
        const std::string line =
            fmt::format("{} {}{}{}{}\n", paint(tone::faint, p.counter, options_.colour), p.label, p.figures,
                        paint(status_tone, p.status, options_.colour), p.clock);
        if (options_.mode == progress_mode::bar && drawn_) std::fputs("\r\033[K", stderr);
        std::fputs(line.c_str(), stderr);
        drawn_ = false;
    }

    // The status line, no wider than the terminal: the label is cut first,
    // so where the run is and its ETA stay in view. The caller holds the
    // mutex. Unless `force`d, at most ten redraws a second (repetitions can
    // be much shorter than the terminal needs to draw a line).
    void draw(bool force = true) {
        if (options_.mode != progress_mode::bar || stopped_) return;
        const auto now = clock_type::now();
        if (!force && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
        last_draw_ = now;
        std::string label, phase;
        auto a = active_.find(shown_);
        if (a != active_.end()) {
            const active_case& c = a->second;
            label = escape_line(c.label);
            phase = where(c);
            const double running = seconds_since(c.started);
            if (running > slow_case_s)
                phase = fmt::format("{}, case still running after {}", phase, format_span(running));
        }
        const std::size_t done = total_ - remaining_.size();
        const std::string head = fmt::format("[{}/{}]", a != active_.end() ? shown_ + 1 : done, total_);
        const std::string tail = (phase.empty() ? "" : " | " + phase) + " | " + clock_text();
        // One column is left free: a line that fills the terminal wraps on some.
        const std::size_t room = terminal_columns() - 1;
        const std::size_t fixed = head.size() + 1 + display_width(tail);
        std::string text;
        if (label.empty())
            text = tail.substr(3);
        else if (fixed + 8 <= room) // room for a label of a few characters
            text = (display_width(label) + fixed <= room ? label
                                                         : first_columns(label, room - fixed - 3) + "...") +
                   tail;
        else
            text = label + tail;
        text = first_columns(text, room > head.size() + 1 ? room - head.size() - 1 : 0);
        std::fputs(fmt::format("\r{} {}\033[K", paint(tone::faint, head, options_.colour), text).c_str(),
                   stderr);
        std::fflush(stderr);
        drawn_ = true;
    }

    void tick() {
        std::unique_lock lock(mutex_);
        while (!stopped_) {
            wake_.wait_for(lock, std::chrono::seconds(1));
            if (!stopped_) draw();
        }
    }

    void stop_ticking() {
        {
            std::lock_guard lock(mutex_);
            if (stopped_) return;
            stopped_ = true;
            if (drawn_) std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
            drawn_ = false;
        }
        wake_.notify_all();
        if (ticker_.joinable()) ticker_.join();
    }

    const progress_options options_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread ticker_;
    bool stopped_ = false;
    bool drawn_ = false; // the status line is on the screen
    clock_type::time_point last_draw_{};
    std::size_t total_ = 0;
    clock_type::time_point start_ = clock_type::now();
    std::map<std::size_t, pending_case> remaining_; // plan index -> payload and format, cases not finished
    std::vector<finished_case> finished_;           // payload and time of each case finished in this run
    // Each case's share of the wall time: every interval between two events
    // goes to the case the runner worked on in it (the case of a repetition
    // or finish event; the case started before the next start).
    std::map<std::size_t, double> busy_;
    std::optional<std::size_t> started_last_; // the last event was this case's start
    clock_type::time_point last_event_ = clock_type::now();
    std::map<std::size_t, active_case> active_;
    std::size_t shown_ = 0; // the case the status line shows
};

} // namespace

std::unique_ptr<observer> make_progress(const progress_options& options) {
    return std::make_unique<progress>(options);
}

} // namespace formatbench
