// The hdf5 plugin's external HDF5 filters (see filters.hpp).
#include "filters.hpp"

#include "h5_support.hpp"

#include <H5PLpublic.h>

#include <cstring>
#include <iterator>

namespace formatbench::hdf5 {
namespace {

constexpr filter_info filters[] = {
    {"lz4", 32004, "apt-get install hdf5-filter-plugin"},
    {"bitshuffle", 32008, "apt-get install bitshuffle"},
    {"blosc", 32001, "apt-get install hdf5-filter-plugin-blosc-serial"},
    {"zfp", 32013, "apt-get install hdf5-filter-plugin-zfp-serial"},
};

void put_double(std::vector<unsigned>& v, double x) {
    unsigned words[2];
    static_assert(sizeof words == sizeof x);
    std::memcpy(words, &x, sizeof x);
    v.push_back(words[0]);
    v.push_back(words[1]);
}

// HDF5's plugin folders, in its search order, for a message.
std::string plugin_folders() {
    unsigned n = 0;
    if (H5PLsize(&n) < 0) {
        take_error_stack();
        return "?";
    }
    std::string out;
    for (unsigned i = 0; i < n; ++i) {
        char folder[1024] = "";
        if (H5PLget(i, folder, sizeof folder) < 0) {
            take_error_stack();
            continue;
        }
        out += (out.empty() ? "" : ", ") + std::string(folder);
    }
    return out.empty() ? "no folder" : out;
}

} // namespace

const filter_info* filter_of(external_filter f) noexcept {
    switch (f) {
    case external_filter::none: return nullptr;
    case external_filter::lz4: return &filters[0];
    case external_filter::bitshuffle: return &filters[1];
    case external_filter::blosc: return &filters[2];
    case external_filter::zfp: return &filters[3];
    }
    return nullptr;
}

const filter_info* filter_of_id(H5Z_filter_t id) noexcept {
    for (const auto& f : filters)
        if (f.id == id) return &f;
    return nullptr;
}

std::vector<unsigned> filter_values(const hdf5_settings& s) {
    std::vector<unsigned> v;
    switch (s.filter) {
    case external_filter::none: break;
    case external_filter::lz4:
        if (s.lz4_block) v.push_back(static_cast<unsigned>(s.lz4_block));
        break;
    case external_filter::bitshuffle: v = {0, s.bitshuffle_lz4 ? 2u : 0u}; break;
    case external_filter::blosc: v = {0, 0, 0, 0, s.blosc_level, s.blosc_shuffle, s.blosc_codec}; break;
    case external_filter::zfp:
        switch (s.zfp) {
        case zfp_mode::reversible: v = {5, 0}; break;
        case zfp_mode::rate:
            v = {1, 0};
            put_double(v, s.zfp_rate);
            break;
        case zfp_mode::precision: v = {2, 0, s.zfp_precision}; break;
        case zfp_mode::accuracy:
            v = {3, 0};
            put_double(v, s.zfp_accuracy);
            break;
        }
        v.resize(6, 0); // H5Z_ZFP_CD_NELMTS_MEM
        break;
    }
    return v;
}

std::string filter_remedy(const filter_info& f) {
    std::string out = f.remedy;
    unsigned state = 0;
    if (H5PLget_loading_state(&state) >= 0 && !(state & H5PL_FILTER_PLUGIN))
        return out + " (loading filter plugins is turned off in this process: HDF5_PLUGIN_PRELOAD is '::')";
    take_error_stack();
    return out + " (HDF5 looks for filter plugins in " + plugin_folders() +
           "; HDF5_PLUGIN_PATH, colon-separated, sets the folders)";
}

void check_filters_available(const hdf5_settings& s) {
    if (s.deflate > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) {
        take_error_stack();
        throw sdk::error(FB_E_UNSUPPORTED,
                         "hdf5: this HDF5 library has no deflate filter (HDF5 built without zlib); use "
                         "deflate 0");
    }
    const filter_info* f = filter_of(s.filter);
    if (!f || H5Zfilter_avail(f->id) > 0) return;
    take_error_stack();
    throw sdk::error(FB_E_UNSUPPORTED, std::string("hdf5: filter '") + f->name + "' (" +
                                           std::to_string(f->id) +
                                           ") is not available: " + filter_remedy(*f));
}

} // namespace formatbench::hdf5
