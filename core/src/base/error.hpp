// Exceptions of the core. Each carries the context a user needs to act; the
// CLI maps them to the documented exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace formatbench {

// Exit codes (docs/cli.md).
inline constexpr int exit_ok = 0;
inline constexpr int exit_case_failed = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_interrupted = 130;

// Bad user input: a study file, a command-line value, an unknown plugin.
// Leads to exit status 2.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A plugin call failed; carries the plugin id and the plugin's status.
class plugin_error : public std::runtime_error {
public:
    plugin_error(std::string plugin_id, int status, const std::string& message)
        : std::runtime_error(message), plugin_id_(std::move(plugin_id)), status_(status) {}
    const std::string& plugin_id() const noexcept { return plugin_id_; }
    int status() const noexcept { return status_; }

private:
    std::string plugin_id_;
    int status_;
};

} // namespace formatbench
