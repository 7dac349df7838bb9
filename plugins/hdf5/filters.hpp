// The HDF5 filters the hdf5 plugin offers beyond HDF5's own (deflate,
// shuffle, fletcher32): lz4, bitshuffle, blosc and zfp, registered filter
// plugins that HDF5 loads from its plugin folders (Debian 12: the packages
// hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial and
// hdf5-filter-plugin-zfp-serial, in /usr/lib/x86_64-linux-gnu/hdf5/serial/
// plugins, or the folders of HDF5_PLUGIN_PATH). Their ids, parameters
// (cd_values), whether this process's HDF5 can load them, and what to
// install when it cannot.
#pragma once

#include "settings.hpp"

#include <string>
#include <vector>

namespace formatbench::hdf5 {

struct filter_info {
    const char* name;   // the option value: lz4, bitshuffle, blosc, zfp
    H5Z_filter_t id;    // registered with The HDF Group
    const char* remedy; // what to install, for a message
};

// The table entry of a filter; nullptr for none.
const filter_info* filter_of(external_filter f) noexcept;
// The table entry of a registered id (for the reader's messages); nullptr
// for ids the plugin does not set itself.
const filter_info* filter_of_id(H5Z_filter_t id) noexcept;

// The cd_values of s.filter for H5Pset_filter, as each filter's headers
// define them: lz4 {block bytes} (0: the filter's 1 GiB default); bitshuffle
// {block elements = 0 (automatic), compression 0 or 2 (lz4)}, to which its
// set_local prepends version and element size; blosc {0, 0, 0, 0, level,
// shuffle, compressor} (slots 0-3 are filled by its set_local); zfp
// {mode, 0, parameter words...} of H5Z-ZFP's generic interface (reversible
// = mode 5, rate 1, precision 2, accuracy 3; doubles in two words).
std::vector<unsigned> filter_values(const hdf5_settings& s);

// Throws sdk::error(FB_E_UNSUPPORTED) when a filter that s needs cannot be
// loaded by this HDF5 (H5Zfilter_avail, which loads a filter plugin from
// the plugin folders the first time): "hdf5: filter 'zfp' (32013) is not
// available: apt-get install hdf5-filter-plugin-zfp-serial (HDF5 looks in
// ...)". No file is touched. The caller holds a library_call.
void check_filters_available(const hdf5_settings& s);

// "apt-get install ... (HDF5 looks for filter plugins in DIR, ...)", the
// remedy for a filter HDF5 cannot load; the caller holds a library_call.
std::string filter_remedy(const filter_info& f);

} // namespace formatbench::hdf5
