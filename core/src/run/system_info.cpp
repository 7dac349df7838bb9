// Collects the run context from uname, /proc and statfs.
#include "run/system_info.hpp"

#include "build_config.hpp"

#include <fmt/format.h>

#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <fstream>
#include <optional>
#include <thread>

namespace formatbench {

std::string filesystem_type(const std::string& path) {
    struct statfs s {};
    if (::statfs(path.c_str(), &s) != 0) return "unknown";
    switch (static_cast<unsigned long>(s.f_type)) {
    case 0xEF53: return "ext4";
    case 0x01021994: return "tmpfs";
    case 0x794C7630: return "overlay";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x6969: return "nfs";
    case 0x65735546: return "fuse";
    case 0x2FC12FC1: return "zfs";
    case 0x858458F6: return "ramfs";
    case 0x01021997: return "9p";
    case 0xF2F52010: return "f2fs";
    case 0x5346544E: return "ntfs";
    case 0x4D44: return "vfat";
    default: return fmt::format("0x{:x}", static_cast<unsigned long>(s.f_type));
    }
}

std::string iso8601_now() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

// A cgroup memory limit file's value; nullopt for "max", missing or garbage.
std::optional<std::uint64_t> read_limit(const std::string& path) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") return std::nullopt;
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

// The tightest memory limit of this process's cgroup and its ancestors.
std::optional<std::uint64_t> cgroup_limit() {
    std::ifstream self("/proc/self/cgroup");
    std::optional<std::uint64_t> best;
    auto take = [&](std::optional<std::uint64_t> v) {
        if (v && (!best || *v < *best)) best = v;
    };
    for (std::string line; std::getline(self, line);) {
        // "0::/user.slice/..." (v2) or "4:memory:/..." (v1)
        const auto a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1);
        std::string path = line.substr(b + 1);
        const bool v2 = controllers.empty(), v1 = controllers.find("memory") != std::string::npos;
        if (!v2 && !v1) continue;
        const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
        const std::string file = v2 ? "/memory.max" : "/memory.limit_in_bytes";
        for (;;) {
            take(read_limit(root + path + file));
            if (path.empty() || path == "/") break;
            path = path.substr(0, path.rfind('/'));
        }
    }
    return best;
}

} // namespace

std::uint64_t usable_memory_bytes() {
    long pages = ::sysconf(_SC_PHYS_PAGES);
    long page = ::sysconf(_SC_PAGESIZE);
    std::uint64_t physical = pages > 0 && page > 0
                                 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                 : std::uint64_t{4} << 30;
    if (auto limit = cgroup_limit(); limit && *limit < physical) return *limit;
    return physical;
}

std::uint64_t default_in_memory_bytes() {
    return usable_memory_bytes() / 4;
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

double load_average() {
    std::ifstream in("/proc/loadavg");
    double load = -1;
    if (!(in >> load)) return -1;
    return load;
}

run_context collect_context(const std::string& data_directory) {
    run_context c;
    c.formatbench_version = FB_VERSION;
    c.date = iso8601_now();
    char host[256] = "";
    if (::gethostname(host, sizeof host - 1) == 0) c.host = host;
    struct utsname u {};
    if (::uname(&u) == 0) {
        c.os = u.sysname;
        c.kernel = u.release;
    }
    std::ifstream os_release("/etc/os-release");
    for (std::string line; std::getline(os_release, line);) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string v = line.substr(12);
            if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
            c.os = v;
        }
    }
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) c.cpu_model = line.substr(colon + 2);
            break;
        }
    }
    c.cores = std::thread::hardware_concurrency();
    c.load_before = load_average();
    long pages = ::sysconf(_SC_PHYS_PAGES);
    long page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        c.memory_bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
    c.data_directory = data_directory;
    c.filesystem = filesystem_type(data_directory);
    c.compiler = FB_COMPILER;
    c.build_type = FB_BUILD_TYPE;
    return c;
}

} // namespace formatbench
