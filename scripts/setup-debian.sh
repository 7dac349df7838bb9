#!/usr/bin/env bash
# Installs what formatbench needs to build and test on Debian 12, from
# Debian's packages only. Run as root. Safe to run again.
#   --tests  also Chromium (~290 MB installed) and the DejaVu fonts, which
#            only the report rendering test uses; the README's test command
#            passes it. Everything else (OpenMPI, the formats' own tools,
#            man-db, zsh, clang) comes in both ways.
set -euo pipefail
with_browser=false
for arg in "$@"; do
  case $arg in
    --tests) with_browser=true ;;
    *) echo "setup-debian.sh: unknown argument '$arg' (only --tests)" >&2; exit 2 ;;
  esac
done
packages=(
  meson ninja-build g++ pkg-config python3
  ccache                  # Meson compiles through it when it is there: a second build on this machine
                          # (scripts/test-all.sh: even from a fresh clone elsewhere) compiles only what changed
  libboost-dev            # Boost.DLL (header-only with std::filesystem), Boost.Math
  libyaml-cpp-dev libfmt-dev libcli11-dev nlohmann-json3-dev zlib1g-dev
  libfast-float-dev       # the ascii plugin's float parser (header-only; 15% faster than std::from_chars)
  libzstd-dev zstd        # the zstd plugin (libzstd); its tests decode and encode with the zstd command
  liblz4-dev lz4          # the lz4 plugin (lz4frame); its tests decode and encode with the lz4 command
  libblosc-dev python3-blosc  # the blosc plugin (libblosc 1.x); its tests read and write its files with python-blosc
  libzfp-dev python3-zfpy # the zfp plugin (libzfp 1.0); its tests read and write streams with zfpy
  python3-dev pybind11-dev  # the python bridge (plugins/python): CPython 3.11 embedded through pybind11
  python3-zarr python3-numcodecs  # the bridge's py-zarr module (py-numpy, py-h5py and py-netcdf4 use
                          # python3-numpy, python3-h5py and python3-netcdf4, below)
  python3-xarray python3-pandas python3-tables  # the bridge's py-xarray (to_netcdf through netCDF4, to_zarr)
                          # and py-pandas (to_pickle; to_hdf through PyTables) modules
  libgtest-dev python3-jsonschema  # tests (the results schema is checked with jsonschema)
  python3-numpy           # tests: .npy interop of plugins/npy and examples/npy
  libhdf5-dev libnetcdf-dev  # the hdf5 and netcdf plugins (Debian's serial HDF5 1.10; netCDF 4.9 with CDF-5)
  hdf5-tools python3-h5py    # tests: hdf5 plugin interop with h5dump and h5py
  hdf5-filter-plugin hdf5-filter-plugin-blosc-serial hdf5-filter-plugin-zfp-serial bitshuffle
                          # the hdf5 plugin's filters lz4, blosc, zfp and bitshuffle (HDF5 loads them from
                          # its plugin folder; bitshuffle's package brings its Python module too)
  python3-hdf5plugin      # tests: h5py reads the hdf5 plugin's filtered files (plugin_hdf5_filters_interop)
  netcdf-bin python3-netcdf4 # tests: netcdf plugin interop with ncdump and netCDF4-python
  libopenmpi-dev openmpi-bin # MPI scale-out (mpirun -np N formatbench run); tests/mpi runs mpirun -np 2
  libhdf5-openmpi-dev     # the hdf5_mpio plugin (parallel HDF5, MPI-IO driver); beside libhdf5-dev, each plugin links its own
  libpnetcdf-dev          # the pnetcdf plugin (PnetCDF 1.12, built against Debian's Open MPI); its test
                          # reads the files with netcdf-bin and python3-netcdf4 (above)
  cmake                   # tests: not in a fresh Debian 12; the plugin guide's and new-plugin's CMake builds
  fio                     # benchmarks: bench/access-speed.py reads the same file with fio beside formatbench
  autoconf automake       # benchmarks: bench/ior-compare.py builds IOR from its source tarball
  man-db                  # tests: `man formatbench` renders the installed page (not in minimal/container images)
  zsh                     # tests: the zsh completion parses and completes (tests/cli/test_install_zsh.sh)
  clang                   # sanitizer/fuzz builds
  gfortran                # the fortran plugin (gfortran's runtime I/O), the gfortran programs its tests and the
                          # ascii tests compare with, the reference Fortran program (benchmarks)
)
if $with_browser; then
  packages+=(chromium)    # tests/compare/test_render.sh renders a report headless
  packages+=(fonts-dejavu-core)  # the face the report's charts are measured for (report/text_metrics.hpp)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
