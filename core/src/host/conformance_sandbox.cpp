// The folders a conformance check runs in (see conformance_sandbox.hpp).
#include "host/conformance_sandbox.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace formatbench::conformance {
namespace {

std::string temp_root() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

std::string make_temp_dir(const std::string& prefix) {
    std::string pattern = temp_root() + "/" + prefix + "-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    return buf.data();
}

void plant_bait(const std::string& dir) {
    std::ofstream f(dir + "/" + bait_file_name);
    f << "formatbench check-plugin: a plugin must leave this file alone\n";
    if (!f) throw std::system_error(errno, std::generic_category(), "cannot write a file in " + dir);
}

bool is_under(const std::string& path, const std::string& top) {
    return !top.empty() &&
           (path == top ||
            (path.size() > top.size() && path.compare(0, top.size(), top) == 0 && path[top.size()] == '/'));
}

std::vector<std::string> describe_changes(const folder_snapshot& before, const folder_snapshot& after,
                                          const std::string& allowed,
                                          std::string (*show)(const std::string&, const std::string&),
                                          const std::string& context) {
    std::vector<std::string> out;
    auto name = [&](const std::string& p) { return "'" + (show ? show(p, context) : p) + "'"; };
    for (const auto& [path, now] : after) {
        if (is_under(path, allowed)) continue;
        auto it = before.find(path);
        if (it == before.end()) {
            out.push_back("created " + name(path));
            continue;
        }
        const file_state& was = it->second;
        bool changed = was.type != now.type || was.inode != now.inode;
        if (!S_ISDIR(now.type)) changed = changed || was.size != now.size || was.mtime_ns != now.mtime_ns;
        if (changed) out.push_back("changed " + name(path));
    }
    for (const auto& [path, was] : before)
        if (!is_under(path, allowed) && !after.count(path)) out.push_back("removed " + name(path));
    return out;
}

// A sandbox path as a user reads it: "./x", "$HOME/x", "$TMPDIR/x".
std::string sandbox_name(const std::string& path, const std::string& root) {
    for (auto [folder, shown] :
         {std::pair{"/cwd", "."}, std::pair{"/home", "$HOME"}, std::pair{"/tmp", "$TMPDIR"}})
        if (is_under(path, root + folder))
            return shown + path.substr(root.size() + std::string(folder).size());
    return path;
}

} // namespace

scratch_dir::scratch_dir() : path_(make_temp_dir("fb-conformance")) {
    try {
        plant_bait(path_);
    } catch (...) {
        remove_tree(path_);
        throw;
    }
}

scratch_dir::~scratch_dir() {
    remove_tree(path_);
}

std::string scratch_dir::file(const std::string& name, const std::string& extension) const {
    return path_ + "/" + name + (extension.empty() ? "" : "." + extension);
}

folder_snapshot snapshot_folder(const std::string& dir) {
    folder_snapshot out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0) continue; // gone meanwhile
        out[it->path().string()] = {
            static_cast<std::uint32_t>(st.st_mode & S_IFMT), static_cast<std::uint64_t>(st.st_size),
            static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    }
    return out;
}

std::vector<std::string> folder_changes(const folder_snapshot& before, const folder_snapshot& after,
                                        const std::string& allowed) {
    return describe_changes(before, after, allowed, nullptr, {});
}

folder_watch::folder_watch(std::string dir, std::string allowed)
    : dir_(std::move(dir)), allowed_(std::move(allowed)), before_(snapshot_folder(dir_)) {}

std::vector<std::string> folder_watch::changes() const {
    return folder_changes(before_, snapshot_folder(dir_), allowed_);
}

void remove_tree(const std::string& path) noexcept {
    std::error_code ec;
    // A check may have made a folder read-only; give write access back first.
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec) && !it->is_symlink(ec))
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
}

check_sandbox::check_sandbox() : root_(make_temp_dir("fb-check")) {
    try {
        for (const char* sub : {"/cwd", "/home", "/tmp"}) {
            fs::create_directory(root_ + sub);
            plant_bait(root_ + sub);
        }
        before_ = snapshot_folder(root_);
    } catch (...) {
        remove_tree(root_);
        throw;
    }
}

check_sandbox::~check_sandbox() {
    remove_tree(root_);
}

std::string check_sandbox::enter() const {
    if (::chdir((root_ + "/cwd").c_str()) != 0) return "cannot enter " + root_ + "/cwd";
    if (::setenv("HOME", (root_ + "/home").c_str(), 1) != 0 ||
        ::setenv("TMPDIR", (root_ + "/tmp").c_str(), 1) != 0)
        return "cannot set HOME and TMPDIR";
    return "";
}

std::vector<std::string> check_sandbox::changes() const {
    return describe_changes(before_, snapshot_folder(root_), "", sandbox_name, root_);
}

} // namespace formatbench::conformance
