// The width that run's table, plan's cases, compare's table and describe's
// text are laid out for (commands.hpp, output_width): one rule for all.
#include "base/error.hpp"
#include "cli/commands.hpp"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>

namespace formatbench::cli {

std::size_t output_width(const std::string& flag, std::size_t otherwise) {
    auto parse = [](const std::string& text) -> std::optional<std::size_t> {
        if (text == "unlimited") return 0;
        std::size_t n = 0;
        for (char c : text) {
            if (c < '0' || c > '9' || n > 100000) return std::nullopt;
            n = n * 10 + static_cast<std::size_t>(c - '0');
        }
        if (text.empty() || n < 40) return std::nullopt;
        return n;
    };
    if (!flag.empty()) {
        if (auto w = parse(flag)) return *w;
        throw usage_error(
            fmt::format("--width: expected a number of columns, 40 or more, or 'unlimited', got '{}'", flag));
    }
    if (const char* env = std::getenv("COLUMNS"); env && *env)
        if (auto w = parse(env); w && *w > 0) return *w;
    struct winsize ws {};
    if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    return otherwise;
}

} // namespace formatbench::cli
