// ABI evolution test plugin in C++ with plugin.hpp (ABI 1.2): raw bytes,
// with random access (formatbench.read-at/1 and, through sdk::for_each_run,
// formatbench.read-box/1). test_abi.sh passes it through check-plugin (its
// read-box checks on every axis) and through old_host.c with 1.0 and 1.1
// open arguments, which end before the shape: the SDK then gives it no
// shape (a box is FB_E_TRUNCATED) while flat reads and read-at work.
// (The installed example of random access in C++ is examples/read_at.)
#include <formatbench/plugin.hpp>
#include <formatbench/posix_file.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace sdk = formatbench::sdk;

struct abi_cpp_format {
    static sdk::plugin_info info() {
        return {
            "abi_cpp_1_2",  "1.0.0", "ABI evolution test plugin in C++: raw bytes with read-at and read-box",
            "MIT",          "bin",   FB_DTYPES_ALL,
            FB_CAP_LOSSLESS};
    }

    class writer {
    public:
        explicit writer(const sdk::open_request& r)
            : size_(r.element_size()), file_(sdk::file::create(r.path)) {}
        void write(const void* data, std::uint64_t count) { file_.write_all(data, count * size_); }
        void close() { file_.close(); }

    private:
        std::size_t size_;
        sdk::file file_;
    };

    class reader {
    public:
        // The file holds exactly the count asked for. request.shape is the
        // data set's (empty for a flat array, and always for a host whose
        // open arguments end before it): read_box needs it.
        explicit reader(const sdk::open_request& r)
            : path_(r.path), size_(r.element_size()), shape_(r.shape), file_(sdk::file::open_read(r.path)) {
            struct stat st = file_.status();
            if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) != r.count * size_)
                throw sdk::error(
                    static_cast<std::uint64_t>(st.st_size) < r.count * size_ ? FB_E_TRUNCATED : FB_E_CORRUPT,
                    "abi_cpp: '" + path_ + "' does not hold " + std::to_string(r.count) + " elements");
        }
        void read(void* data, std::uint64_t count) {
            get(done_, data, count);
            done_ += count;
        }
        // The adapter has checked that [offset, offset + count) lies in the file.
        void read_at(std::uint64_t offset, void* data, std::uint64_t count) { get(offset, data, count); }
        // The adapter has checked the box against shape_; each run is one
        // contiguous stretch of the file.
        void read_box(const std::uint64_t* start, const std::uint64_t* count, void* data) {
            sdk::for_each_run(shape_, start, count,
                              [&](std::uint64_t offset, std::uint64_t length, std::uint64_t position) {
                                  get(offset, static_cast<char*>(data) + position * size_, length);
                              });
        }
        void close() { file_.close(); }

    private:
        void get(std::uint64_t offset, void* data, std::uint64_t count) {
            std::size_t bytes = count * size_;
            if (file_.read_full_at(data, bytes, offset * size_) != bytes)
                throw sdk::error(FB_E_TRUNCATED, "abi_cpp: '" + path_ + "' ends before the data asked for");
        }
        std::string path_;
        std::size_t size_;
        std::vector<std::uint64_t> shape_;
        sdk::file file_;
        std::uint64_t done_ = 0;
    };
};

} // namespace

FORMATBENCH_PLUGIN(abi_cpp_format)
