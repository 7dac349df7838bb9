// Walks a classic netCDF header to a variable's data (see classic_header.hpp).
#include "classic_header.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace formatbench::netcdf {
namespace {

constexpr std::uint32_t tag_dimension = 0x0A;
constexpr std::uint32_t tag_variable = 0x0B;
constexpr std::uint32_t tag_attribute = 0x0C;
// netCDF names are at most NC_MAX_NAME (256) bytes; a longer one is damage.
constexpr std::uint64_t max_name_bytes = 4096;

[[noreturn]] void bad(const std::string& what) {
    throw bad_classic_header(what);
}

// Bytes of one element of a classic type code, 0 for an unknown code.
std::uint64_t type_size(std::uint32_t type) {
    switch (type) {
    case 1:            // NC_BYTE
    case 2:            // NC_CHAR
    case 7: return 1;  // NC_UBYTE
    case 3:            // NC_SHORT
    case 8: return 2;  // NC_USHORT
    case 4:            // NC_INT
    case 5:            // NC_FLOAT
    case 9: return 4;  // NC_UINT
    case 6:            // NC_DOUBLE
    case 10:           // NC_INT64
    case 11: return 8; // NC_UINT64
    default: return 0;
    }
}

std::uint64_t padded4(std::uint64_t n) {
    if (n > UINT64_MAX - 3) bad("a length overflows 64 bits");
    return (n + 3) / 4 * 4;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > UINT64_MAX / a) bad("a size overflows 64 bits");
    return a * b;
}

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b) {
    if (b > UINT64_MAX - a) bad("a size overflows 64 bits");
    return a + b;
}

// Big-endian fields of the header through a 64 KiB window of the file.
class header_reader {
public:
    header_reader(int fd, std::uint64_t size) : fd_(fd), size_(size) {}

    void set_cdf5(bool v) { cdf5_ = v; }
    std::uint64_t remaining() const { return size_ - pos_; }

    std::uint32_t u32() {
        unsigned char b[4];
        take(b, 4);
        return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
    }
    std::uint64_t u64() {
        std::uint64_t hi = u32();
        return hi << 32 | u32();
    }
    // A count or size: 8 bytes in CDF-5, else 4.
    std::uint64_t count() { return cdf5_ ? u64() : u32(); }
    void skip(std::uint64_t n) {
        if (n > remaining()) bad("the header runs past the end of the file");
        pos_ += n;
    }
    // A name: its length, then its bytes padded to 4.
    std::string name() {
        std::uint64_t n = count();
        if (n > max_name_bytes) bad("a name of " + std::to_string(n) + " bytes");
        std::string s(static_cast<std::size_t>(n), '\0');
        take(s.data(), s.size());
        skip(padded4(n) - n);
        return s;
    }
    void take(void* out, std::size_t n) {
        if (n > remaining()) bad("the header runs past the end of the file");
        auto* p = static_cast<unsigned char*>(out);
        while (n > 0) {
            if (pos_ < window_at_ || pos_ >= window_at_ + window_.size()) fill();
            std::size_t in_window = static_cast<std::size_t>(window_at_ + window_.size() - pos_);
            std::size_t k = std::min(n, in_window);
            std::memcpy(p, window_.data() + (pos_ - window_at_), k);
            p += k;
            n -= k;
            pos_ += k;
        }
    }

private:
    void fill() {
        std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(1u << 16, remaining()));
        window_.resize(n);
        std::size_t got = 0;
        while (got < n) {
            ssize_t k = ::pread(fd_, window_.data() + got, n - got, static_cast<off_t>(pos_ + got));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) bad("the file could not be read to the end of its header");
            got += static_cast<std::size_t>(k);
        }
        window_at_ = pos_;
    }

    int fd_;
    std::uint64_t size_;
    std::uint64_t pos_ = 0;
    bool cdf5_ = false;
    std::vector<unsigned char> window_;
    std::uint64_t window_at_ = 0;
};

// A list's tag and element count; ABSENT is tag 0 with count 0.
std::uint64_t list_header(header_reader& in, std::uint32_t tag, const char* what) {
    std::uint32_t t = in.u32();
    std::uint64_t n = in.count();
    if (t == 0 && n == 0) return 0;
    if (t != tag) bad(std::string("a bad tag for the ") + what + " list");
    return n;
}

void skip_attributes(header_reader& in) {
    std::uint64_t n = list_header(in, tag_attribute, "attribute");
    for (std::uint64_t i = 0; i < n; ++i) {
        in.name();
        std::uint64_t size = type_size(in.u32());
        if (size == 0) bad("an attribute of an unknown type");
        std::uint64_t values = in.count();
        in.skip(padded4(checked_mul(values, size)));
    }
}

} // namespace

classic_extent classic_data_end(int fd, std::uint64_t file_size, const std::string& name) {
    header_reader in(fd, file_size);
    unsigned char magic[4];
    in.take(magic, 4);
    if (std::memcmp(magic, "CDF", 3) != 0 || (magic[3] != 1 && magic[3] != 2 && magic[3] != 5))
        bad("no classic netCDF magic");
    const int version = magic[3];
    in.set_cdf5(version == 5);
    const std::uint64_t records = in.count();
    const bool streaming = version == 5 ? records == UINT64_MAX : records == UINT32_MAX;

    std::uint64_t ndims = list_header(in, tag_dimension, "dimension");
    if (ndims > in.remaining() / 8) bad("more dimensions than the file has room for");
    std::vector<std::uint64_t> dim_length(static_cast<std::size_t>(ndims));
    for (auto& len : dim_length) {
        in.name();
        len = in.count();
    }
    skip_attributes(in);

    struct found_variable {
        std::uint64_t elements = 1; // per record for a record variable
        std::uint64_t element_size = 0;
        bool record = false;
        std::uint64_t begin = 0;
    };
    found_variable mine;
    bool found = false;
    std::uint64_t record_variables = 0, record_bytes = 0, single_record = 0;
    std::uint64_t nvars = list_header(in, tag_variable, "variable");
    if (nvars > in.remaining() / 16) bad("more variables than the file has room for");
    for (std::uint64_t v = 0; v < nvars; ++v) {
        found_variable var;
        std::string var_name = in.name();
        std::uint64_t rank = in.count();
        if (rank > in.remaining() / 4) bad("a variable with more dimensions than the file has room for");
        for (std::uint64_t d = 0; d < rank; ++d) {
            std::uint64_t id = in.count();
            if (id >= dim_length.size()) bad("a variable names a dimension that does not exist");
            if (d == 0 && dim_length[id] == 0)
                var.record = true;
            else
                var.elements = checked_mul(var.elements, dim_length[id]);
        }
        skip_attributes(in);
        var.element_size = type_size(in.u32());
        if (var.element_size == 0) bad("a variable of an unknown type");
        std::uint64_t vsize = in.count();
        var.begin = version == 1 ? in.u32() : in.u64();
        if (var.record) {
            ++record_variables;
            record_bytes = checked_add(record_bytes, vsize);
            single_record = checked_mul(var.elements, var.element_size);
        }
        if (var_name == name) {
            mine = var;
            found = true;
        }
    }

    classic_extent out;
    out.found = found;
    if (!found) return out;
    const std::uint64_t data = checked_mul(mine.elements, mine.element_size);
    if (!mine.record) {
        out.end = checked_add(mine.begin, data);
        return out;
    }
    if (streaming) {
        out.streaming = true;
        return out;
    }
    if (records == 0) return out; // end 0: nothing to read
    // netCDF packs the records of a lone record variable without padding.
    const std::uint64_t record_size = record_variables == 1 ? single_record : record_bytes;
    out.end = checked_add(checked_add(mine.begin, checked_mul(records - 1, record_size)), data);
    return out;
}

} // namespace formatbench::netcdf
