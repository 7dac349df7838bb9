// Collects the run context from uname, /proc and statfs.
#include "run/system_info.hpp"

#include "build_config.hpp"

#include <fmt/format.h>

#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
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
