// Installed folders relative to the executable (Boost.DLL's program_location).
#include "base/install_dirs.hpp"

#include "build_config.hpp"
#include "source_tree.hpp"

#define BOOST_DLL_USE_STD_FS
#include <boost/dll/runtime_symbol_info.hpp>

#include <system_error>

namespace fs = std::filesystem;

namespace formatbench {
namespace {

fs::path executable_dir() {
    std::error_code ec;
    fs::path dir = boost::dll::program_location(ec).parent_path();
    return ec ? fs::path() : dir;
}

// The build tree's executable sits in <build>/core, beside <build>/build.ninja
// (the same test the plugin registry uses for <build>/plugins).
bool in_build_tree(const fs::path& exe_dir) {
    std::error_code ec;
    return !exe_dir.empty() && fs::exists(exe_dir / ".." / "build.ninja", ec);
}

// `from_bindir` beside an installed executable; empty in the build tree.
fs::path beside_executable(const char* from_bindir) {
    const fs::path exe_dir = executable_dir();
    if (exe_dir.empty() || in_build_tree(exe_dir)) return {};
    return (exe_dir / from_bindir).lexically_normal();
}

// The folder beside the executable if it exists, else the configured one.
fs::path installed_or_configured(const char* from_bindir, const fs::path& configured) {
    const fs::path beside = beside_executable(from_bindir);
    std::error_code ec;
    return !beside.empty() && fs::is_directory(beside, ec) ? beside : configured;
}

} // namespace

fs::path ready_study_dir() {
    if (in_build_tree(executable_dir())) return fs::path(FB_SOURCE_ROOT) / "configs";
    // Only beside this executable, so two installs never mix their studies;
    // the configured folder if the executable's own location is unknown.
    const fs::path data = beside_executable(FB_DATA_DIR_FROM_BINDIR);
    return (data.empty() ? fs::path(FB_DATA_INSTALL_DIR) : data) / "configs";
}

fs::path installed_study_dir() {
    return installed_or_configured(FB_DATA_DIR_FROM_BINDIR, FB_DATA_INSTALL_DIR) / "configs";
}

fs::path documentation_dir() {
    return installed_or_configured(FB_DOC_DIR_FROM_BINDIR, FB_DOC_INSTALL_DIR);
}

} // namespace formatbench
