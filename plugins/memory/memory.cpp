// memory: keeps the written bytes in RAM, keyed by path, and copies them back
// on read. Its times are the memcpy bound every study shows beside the real
// formats. Writes no file (FB_CAP_NO_FILE). The bytes live from the end of a
// write to the end of the read that follows it.
#include <formatbench/plugin.hpp>

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using formatbench::sdk::error;

// One buffer per path; the host uses a distinct path per case.
struct store {
    std::mutex lock;
    std::map<std::string, std::vector<unsigned char>> buffers;
};

store& the_store() {
    static store s;
    return s;
}

struct memory_format {
    static formatbench::sdk::plugin_info info() {
        return {"memory",
                "1.0.0",
                "in-memory baseline: a memcpy into RAM and back, no file",
                "MIT",
                "",
                FB_DTYPES_ALL,
                FB_CAP_LOSSLESS | FB_CAP_NO_FILE};
    }

    class writer {
    public:
        explicit writer(const formatbench::sdk::open_request& r) : path_(r.path), size_(r.element_size()) {
            if (r.count != FB_COUNT_UNKNOWN) data_.reserve(r.count * size_);
        }
        void write(const void* data, std::uint64_t count) {
            const auto* p = static_cast<const unsigned char*>(data);
            data_.insert(data_.end(), p, p + count * size_);
        }
        void close() {
            std::lock_guard<std::mutex> g(the_store().lock);
            the_store().buffers[path_] = std::move(data_);
        }

    private:
        std::string path_;
        std::size_t size_;
        std::vector<unsigned char> data_;
    };

    class reader {
    public:
        explicit reader(const formatbench::sdk::open_request& r) : path_(r.path), size_(r.element_size()) {
            std::lock_guard<std::mutex> g(the_store().lock);
            auto it = the_store().buffers.find(r.path);
            if (it == the_store().buffers.end())
                throw error(FB_E_IO, "memory: nothing was written at '" + r.path + "' in this process");
            data_ = &it->second;
        }
        void read(void* out, std::uint64_t count) {
            // Compare in elements, so a huge count cannot wrap around.
            if (count > (data_->size() - offset_) / size_)
                throw error(FB_E_TRUNCATED, "memory: asked for more elements than were written");
            if (count == 0) return; // an empty buffer's data() may be null
            std::memcpy(out, data_->data() + offset_, count * size_);
            offset_ += count * size_;
        }
        const void* view(std::uint64_t count) {
            if (count > data_->size() / size_)
                throw error(FB_E_TRUNCATED, "memory: fewer elements than asked for");
            static const unsigned char empty = 0; // the view is never null, also for no data
            return data_->empty() ? &empty : data_->data();
        }
        // Reading is the end of the data's life: free it so that a long study
        // does not keep every case's bytes.
        void close() {
            std::lock_guard<std::mutex> g(the_store().lock);
            the_store().buffers.erase(path_);
        }

    private:
        std::string path_;
        std::size_t size_;
        const std::vector<unsigned char>* data_ = nullptr;
        std::uint64_t offset_ = 0;
    };
};

} // namespace

FORMATBENCH_PLUGIN(memory_format)
