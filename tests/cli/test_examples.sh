#!/usr/bin/env bash
# The example plugins installed with the SDK (<datadir>/formatbench/examples):
# the plain-C plugin (craw), the worker-pool plugin (blocks) and the two
# random-access plugins (read_at_c in C, read_at_cpp in C++) build from
# their INSTALLED copies against the installed SDK only and pass
# check-plugin, the read-at and read-box checks included. blocks keeps plugin.h's thread rules, checked by a small host
# (thread_host.c) that counts the process's threads around the plugin's
# calls: the pool follows its option, threads=0 follows the CPU set the
# process is bound to (taskset), no thread is left after close or after a
# failed open, and a worker's error (a damaged block, a file size limit)
# comes back from the caller's call with its status and the path. A study
# records the thread count as the metric `threads`.
source "$(dirname "$0")/lib.sh"
SRC=${FB_SOURCE_ROOT:?}
source "$(dirname "$0")/sdk_prefix.sh"
examples="$dest$prefix/share/formatbench/examples"
diff -r "$SRC/examples" "$examples" || fail "the installed examples differ from examples/"

# 1. Each example, copied from the install, built and checked.
for ex in c:craw threads:blocks read_at:read_at_c,read_at_cpp; do
  folder=${ex%%:*}; ids=${ex#*:}
  cp -r "$examples/$folder" "$work/$folder"
  meson setup "$work/$folder/build" "$work/$folder" >"$work/setup.log" 2>&1 \
    || { cat "$work/setup.log"; fail "meson setup of the installed examples/$folder failed"; }
  ninja -C "$work/$folder/build" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; fail "building the installed examples/$folder failed"; }
  grep -q -- "-I$dest$prefix/include" "$work/$folder/build/compile_commands.json" \
    || fail "examples/$folder was not compiled with the installed SDK's include folder"
  if grep -q -- "$SRC/core" "$work/$folder/build/compile_commands.json"; then
    fail "examples/$folder's build reaches into the source tree"
  fi
  for id in ${ids//,/ }; do
    lib="$work/$folder/build/libfb_$id.so"
    # --timeout 120: blocks' threads=256 cases start 256 threads per stream,
    # which under ASan on a loaded 2-core CI host took longer than the default
    # 10 s; catching a hang is test_check_plugin.sh's, not this test's.
    expect_status 0 "$bin" check-plugin "$lib" --timeout 120
    expect_in "$work/out" " passed, 0 failed"
    grep -E "^$id [0-9.]+: " "$work/out"
    case $id in read_at_*)
      expect_in "$work/out" "pass  read_at/f64/large"
      expect_in "$work/out" "pass  read_box/f64/large"
      expect_in "$work/out" "pass  read_box/i32/37x41" ;;
    esac
  done
done
expect_in "$work/out" "pass  read_at/f64/block_size=64 (10007 elements)"
blocks="$work/threads/build/libfb_blocks.so"

# 2. The thread rules, through a host of plugin.h alone.
cc $(pkg-config --cflags formatbench-plugin) -o "$work/thread_host" "$SRC/tests/cli/thread_host.c" -ldl \
  || fail "cannot build thread_host.c against the installed SDK"
mkdir -p "$work/rules"
"$work/thread_host" "$blocks" rules "$work/rules" >"$work/rules.log" 2>&1 \
  || { cat "$work/rules.log"; fail "blocks breaks a thread rule"; }
cat "$work/rules.log"

# 3. threads=0 follows the CPUs the process may run on, not the machine's.
[ "$("$work/thread_host" "$blocks" count 7 "$work/rules")" = 7 ] || fail "threads=7 did not start 7 workers"
got=$(taskset -c 0 "$work/thread_host" "$blocks" count 0 "$work/rules")
[ "$got" = 1 ] || fail "under taskset -c 0, threads=0 started $got workers, expected 1"
if taskset -c 0,1 true 2>/dev/null; then
  got=$(taskset -c 0,1 "$work/thread_host" "$blocks" count 0 "$work/rules")
  [ "$got" = 2 ] || fail "under taskset -c 0,1, threads=0 started $got workers, expected 2"
fi
echo "threads=0 under taskset -c 0: 1 worker"

# 4. A study records the metric: one thread per stream under taskset -c 0.
cat >"$work/study.yaml" <<YAML
name: blocks-threads
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: 100000}]
formats: [blocks]
directory: $work/run
YAML
mkdir -p "$work/run"
FORMATBENCH_PLUGIN_PATH="$work/threads/build" expect_status 0 taskset -c 0 "$bin" run "$work/study.yaml" \
  --json "$work/results.json"
"$PY" - "$work/results.json" <<'PY' || fail "the study did not record threads = 1 under taskset -c 0"
import json, sys
record = json.load(open(sys.argv[1]))
case = record["cases"][0]
assert case["status"] == "ok", case["error"]
for phase in ("write", "read"):
    assert case[phase]["metrics"]["threads"] == 1, case[phase]
print("metric threads: write 1, read 1")
PY
echo "examples: ok"
