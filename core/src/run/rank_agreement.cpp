// Every rank runs the same study (rank_agreement.hpp).
#include "run/rank_agreement.hpp"

#include "base/error.hpp"
#include "study/fingerprint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace formatbench::detail {
namespace {

// Fields within a line are separated by this byte, which no canonical
// value holds (values are one-line text).
constexpr char field_separator = '\x1f';

void add(std::string& line, const std::string& name, const std::string& value) {
    if (!line.empty()) line += field_separator;
    line += name;
    line += '=';
    line += value;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = line.find(field_separator, start);
        out.push_back(line.substr(start, end - start));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

std::string name_of(const std::string& field) {
    return field.substr(0, field.find('='));
}

std::string value_of(const std::string& field) {
    const std::size_t eq = field.find('=');
    return eq == std::string::npos ? std::string() : field.substr(eq + 1);
}

std::uint64_t digest(const std::vector<std::string>& lines) {
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a, 64 bits
    for (const std::string& l : lines) {
        for (unsigned char c : l)
            h = (h ^ c) * 0x100000001b3ull;
        h = (h ^ '\n') * 0x100000001b3ull;
    }
    return h;
}

// The study's text form as sent between the ranks: its lines, one a line.
std::string join_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines)
        out += l + '\n';
    return out;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

std::vector<std::string> study_fingerprint(const study& s, const study_run_options& options) {
    std::vector<std::string> lines;
    lines.reserve(s.cases.size() + 1);
    for (const case_spec& c : s.cases) {
        std::string line;
        add(line, "case", fmt::format("{} ({} | {})", c.index, c.dataset.name, c.format.label));
        for (const auto& [name, value] : case_values(c))
            add(line, name, value);
        const bool runs =
            options.selected.empty() || (c.index < options.selected.size() && options.selected[c.index]);
        add(line, "selected (--filter, --exclude)", runs ? "yes" : "no");
        add(line, "resumed (--resume)", options.resumed.count(c.key) ? "yes" : "no");
        lines.push_back(std::move(line));
    }
    std::string settings;
    for (const auto& [name, value] : study_values(s))
        add(settings, name, value);
    lines.push_back(std::move(settings));
    return lines;
}

namespace {

// The first field in which two lines differ, as "NAME is 'A' on rank RA and
// 'B' on rank RB": names derived from other fields (a data set's name from
// its count, a key) only when nothing else differs; "" when none does.
std::string line_difference(const std::string& mine, unsigned my_rank, const std::string& first,
                            unsigned first_rank) {
    const std::vector<std::string> a = split(mine), b = split(first);
    const auto derived = [](const std::string& name) {
        return name == "case" || name == "dataset.name" || name == "format.label" || name == "key";
    };
    for (bool any : {false, true})
        for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
            const std::string fa = k < a.size() ? a[k] : std::string();
            const std::string fb = k < b.size() ? b[k] : std::string();
            const std::string name = name_of(fb.empty() ? fa : fb);
            if (fa == fb || (!any && derived(name))) continue;
            return fmt::format("{} is '{}' on rank {} and '{}' on rank {}", name, value_of(fa), my_rank,
                               value_of(fb), first_rank);
        }
    return {};
}

} // namespace

std::string first_fingerprint_difference(const std::vector<std::string>& mine, unsigned my_rank,
                                         const std::vector<std::string>& first, unsigned first_rank) {
    if (mine.empty() || first.empty()) return mine == first ? std::string() : "one rank planned nothing";
    const std::size_t my_cases = mine.size() - 1, first_cases = first.size() - 1;
    for (std::size_t i = 0; i < std::min(my_cases, first_cases); ++i)
        if (const std::string d = line_difference(mine[i], my_rank, first[i], first_rank); !d.empty())
            return fmt::format("case {}: {}", value_of(split(first[i]).front()), d);
    if (my_cases != first_cases)
        return fmt::format("rank {} plans {} cases and rank {} plans {}", my_rank, my_cases, first_rank,
                           first_cases);
    if (const std::string d = line_difference(mine.back(), my_rank, first.back(), first_rank); !d.empty())
        return "the study's settings: " + d;
    return {};
}

void check_ranks_agree(communicator& world, const std::vector<std::string>& fingerprint) {
    const std::vector<std::string> digests = world.all_gather(fmt::format("{:016x}", digest(fingerprint)));
    const auto other = std::find_if(digests.begin(), digests.end(),
                                    [&](const std::string& d) { return d != digests.front(); });
    if (other == digests.end()) return;
    // Some rank differs: every rank learns rank 0's study and the first
    // differing rank's, and all throw the same error.
    const auto r = static_cast<unsigned>(other - digests.begin());
    const std::vector<std::string> texts =
        world.all_gather(world.rank() == 0 || world.rank() == r ? join_lines(fingerprint) : std::string());
    std::string diff = first_fingerprint_difference(split_lines(texts[r]), r, split_lines(texts[0]), 0);
    if (diff.empty()) diff = "their studies' digests differ";
    throw usage_error(fmt::format(
        "the ranks do not run the same study: {}. Every rank of an MPI run must run the same study with the "
        "same --set, --filter, --exclude and --resume (one formatbench command for all ranks on the "
        "mpirun line)",
        diff));
}

} // namespace formatbench::detail
