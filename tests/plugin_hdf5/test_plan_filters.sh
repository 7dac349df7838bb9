#!/usr/bin/env bash
# `formatbench plan` refuses hdf5 filter options that cannot work here,
# before anything runs (formatbench.check-options/1), naming the study
# file's format entry, the plugin and what to do:
#   1. with HDF5_PLUGIN_PATH pointing at an empty folder HDF5 cannot load
#      zfp (H5Zfilter_avail says so too, asked through h5py when it is
#      there): plan exits 2 with "filter 'zfp' (32013) is not available:
#      apt-get install hdf5-filter-plugin-zfp-serial";
#   2. without it the same study plans (when this machine has the filter);
#   3. a filter with layout contiguous is refused at plan, not at write;
#   4. zfp on u8 is refused at plan.
#   test_plan_filters.sh      (FB: the formatbench binary)
set -euo pipefail
FB=${FB:?FB must name the formatbench binary}
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-plan-filters.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir "$work/no-plugins"

study() { # study FILE DTYPE OPTIONS
  cat >"$1" <<YAML
datasets: [{dtype: $2, count: 1000, distribution: uniform, seed: 1}]
formats:
  - {plugin: hdf5, label: h5-filtered, options: $3}
YAML
}

# plan FILE [ENV...]: its exit status in $status, its output in $out
plan() {
  local file=$1; shift
  set +e
  out=$(env "$@" "$FB" plan "$file" 2>&1)
  status=$?
  set -e
}

expect_refused() { # expect_refused WHAT TEXT
  [[ $status == 2 ]] || fail "$1: plan exited $status, not 2: $out"
  for text in "study.yaml:" "format 'h5-filtered'" "plugin 'hdf5'" "$2"; do
    [[ $out == *"$text"* ]] || fail "$1: plan's message lacks '$text': $out"
  done
}

# ---- 1. zfp cannot be loaded from an empty plugin folder
study "$work/study.yaml" f64 '{filter: zfp}'
plan "$work/study.yaml" HDF5_PLUGIN_PATH="$work/no-plugins"
expect_refused "zfp without plugins" \
  "filter 'zfp' (32013) is not available: apt-get install hdf5-filter-plugin-zfp-serial"
[[ $out == *"HDF5 looks for filter plugins in $work/no-plugins"* ]] || fail "the folder searched is not named: $out"
if "$PY" -c 'import h5py' 2>/dev/null; then
  avail=$(HDF5_PLUGIN_PATH="$work/no-plugins" "$PY" -c 'import h5py; print(h5py.h5z.filter_avail(32013))')
  [[ $avail == False ]] || fail "h5py's H5Zfilter_avail(32013) with an empty HDF5_PLUGIN_PATH is $avail"
  here=$("$PY" -c 'import h5py; print(h5py.h5z.filter_avail(32013))')
else
  echo "note: no h5py for $PY; H5Zfilter_avail not asked independently"
  here=unknown
fi

# ---- 2. the same study plans where the filter loads
plan "$work/study.yaml"
if [[ $here == True ]]; then
  [[ $status == 0 ]] || fail "plan with zfp installed exited $status: $out"
elif [[ $here == False ]]; then
  expect_refused "zfp not installed" "filter 'zfp' (32013) is not available"
fi

# ---- 3. filters need chunks: layout contiguous is refused at plan
for options in '{filter: lz4, layout: contiguous}' '{deflate: 6, shuffle: true, layout: contiguous}'; do
  study "$work/study.yaml" f64 "$options"
  plan "$work/study.yaml"
  expect_refused "$options" "they need layout chunked (or auto), not contiguous"
done

# ---- 4. zfp takes no u8
study "$work/study.yaml" u8 '{filter: zfp}'
plan "$work/study.yaml"
expect_refused "zfp on u8" "filter zfp compresses f64, f32, i64 and i32 values, not u8"
echo "ok"
