#!/usr/bin/env bash
# Errors that `plan` promises to catch arrive at plan, not during `run`
# (issue 43, docs/faults.md "Before anything runs"): each study below is
# refused by `plan` with exit 2 and a message naming the format, the data set
# and what to change, or warned about; the same study with the fix is
# accepted.
#   - zstd `frames: one` read at offsets (access: random) (formatbench.check-case/1)
#   - hdf5 and netcdf `chunks` of another number of axes than the shape (check-case/1)
#   - access_ops 1e12 and 2^64-1 (more operations than a READ phase may time)
#   - access_block: whole with a pattern
#   - zfp on f32 with a tolerance finer than f32 holds near 1: a warning (none
#     on f64, none for a bound that fits, none for 0: exact on purpose)
source "$(dirname "$0")/lib.sh"
cd "$work"

have() { "$FB" plugins 2>/dev/null | grep -qE "^ *$1\b"; }

# refused STUDY-TEXT KEYWORD...: plan exits 2 and stderr holds every keyword.
refused() {
  local text=$1; shift
  printf '%s\n' "$text" > s.yaml
  expect_status 2 "$FB" plan s.yaml
  for k in "$@"; do expect_in "$work/err" "$k"; done
}
accepted() {
  printf '%s\n' "$1" > s.yaml
  expect_status 0 "$FB" plan s.yaml
}

if have zstd; then
  refused 'datasets: [{dtype: f64, count: 100000}]
formats: [{label: z1, plugin: zstd}]
defaults: {access: random}' "format 'z1'" "access: random" "frames: independent" "refuses these options for this case"
  accepted 'datasets: [{dtype: f64, count: 100000}]
formats: [{label: z1, plugin: zstd, options: {frames: independent}}]
defaults: {access: random}'
  # Read whole, one frame is right.
  accepted 'datasets: [{dtype: f64, count: 100000}]
formats: [{label: z1, plugin: zstd}]'
else
  fail "the zstd plugin is not built (libzstd-dev: scripts/setup-debian.sh installs it)"
fi

for p in hdf5 netcdf; do
  have $p || fail "the $p plugin is not built (scripts/setup-debian.sh installs its library)"
  opts='{chunks: "10,10,10"}'
  [ $p = netcdf ] && opts='{format: netcdf4, chunks: "10,10,10"}'
  refused "datasets: [{dtype: f64, shape: [100, 100]}]
formats: [{label: c3, plugin: $p, options: $opts}]" "format 'c3'" "dataset 'f64-uniform-100x100'" "3 extents for the shape 100 x 100 (2 axes)" "one extent per axis"
  opts='{chunks: "10,10"}'
  [ $p = netcdf ] && opts='{format: netcdf4, chunks: "10,10"}'
  accepted "datasets: [{dtype: f64, shape: [100, 100]}]
formats: [{label: c2, plugin: $p, options: $opts}]"
done

refused 'datasets: [{dtype: f64, count: 100000}]
formats: [{plugin: raw}]
defaults: {access: random, access_ops: 1e12}' "access_ops 1000000000000 is more than the 100000000 operations" "24000000000000 B"
refused 'datasets: [{dtype: f64, count: 100000}]
formats: [{plugin: raw}]
defaults: {access: random, access_ops: 18446744073709551615}' "access_ops 18446744073709551615" "over 2^64"
accepted 'datasets: [{dtype: f64, count: 100000}]
formats: [{plugin: raw}]
defaults: {access: random, access_ops: 1e8}'
refused 'datasets: [{dtype: f64, count: 100000}]
formats: [{plugin: raw}]
defaults: {access: random, access_block: whole}' "access_block whole" "access: whole"

if have zfp; then
  # f32 values just below 1 are 2^-24 = 5.96e-08 apart, so at best 2^-25 =
  # 2.98e-08 from a real number: {abs: 1e-10} lets only exact values pass
  # there. A warning (a format may be exact there), at plan and at run.
  printf '%s\n' 'datasets: [{dtype: f32, count: 60000}]
formats: [{label: zfp-fine, plugin: zfp, options: {mode: accuracy, accuracy: 1e-10}, tolerance: {abs: 1e-10}}]' > s.yaml
  expect_status 0 "$FB" plan s.yaml
  for k in "warning: " "format 'zfp-fine', dataset 'f32-uniform-6e4'" "tolerance {abs: 1e-10} is finer than f32" \
           "2.98e-08 from the number" "{abs: 2.98e-08}" "use dtype f64"; do
    expect_in "$work/err" "$k"
  done
  for study in 'datasets: [{dtype: f32, count: 60000}]
formats: [{label: zfp-ok, plugin: zfp, options: {mode: accuracy, accuracy: 1e-6}, tolerance: {abs: 1e-6}}]' \
               'datasets: [{dtype: f64, count: 60000}]
formats: [{label: zfp-fine, plugin: zfp, options: {mode: accuracy, accuracy: 1e-10}, tolerance: {abs: 1e-10}}]' \
               'datasets: [{dtype: f32, count: 60000}]
formats: [{label: zfp-exact, plugin: zfp, options: {mode: accuracy, accuracy: 1e-10}, tolerance: {abs: 0}}]'; do
    accepted "$study"
    if grep -q "tolerance" "$work/err"; then cat "$work/err"; fail "a tolerance warning for a bound that fits: $study"; fi
  done
else
  fail "the zfp plugin is not built (libzfp-dev: scripts/setup-debian.sh installs it)"
fi
echo "plan checks: ok"
