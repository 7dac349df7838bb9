// Output files: render with a reporter, write atomically.
#include "report/output_file.hpp"

#include "report/reporter.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <system_error>

namespace formatbench {

void write_file_atomically(const std::string& path, const std::string& text) {
    std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::system_error(errno, std::generic_category(), "cannot create '" + tmp + "'");
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = std::fflush(f) == 0 && ok;
    ok = ::fsync(::fileno(f)) == 0 && ok;
    int saved = errno;
    std::fclose(f);
    if (!ok) {
        std::remove(tmp.c_str());
        throw std::system_error(saved, std::generic_category(), "cannot write '" + path + "'");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        saved = errno;
        std::remove(tmp.c_str());
        throw std::system_error(saved, std::generic_category(),
                                "cannot rename '" + tmp + "' to '" + path + "'");
    }
}

void write_outputs(const study_result& result, const std::vector<output_spec>& outputs) {
    for (const auto& o : outputs) {
        auto rep = make_reporter(o.format);
        if (o.path.empty() || o.path == "-") {
            rep->write(result, std::cout);
            std::cout.flush();
            continue;
        }
        std::ostringstream text;
        rep->write(result, text);
        write_file_atomically(o.path, text.str());
    }
}

} // namespace formatbench
