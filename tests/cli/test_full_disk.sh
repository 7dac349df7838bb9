#!/usr/bin/env bash
# A data folder that fills up: every file-writing case fails with ENOSPC
# ("No space left on device") and leaves nothing behind, the in-memory case
# still succeeds, and the study ends with exit 1. A log on a full file
# system stops the log, not the study. It needs a small file
# system: a 256 KiB tmpfs mounted here, which needs root; without it the test
# reports SKIP (exit 77), never a pass.
source "$(dirname "$0")/lib.sh"
: "${FB_TEST_PLUGINS:?}"
cd "$work"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: mounting a small tmpfs needs root"
  exit 77
fi
mkdir small
if ! mount -t tmpfs -o size=256k tmpfs small 2>mount.err; then
  echo "SKIP: cannot mount a tmpfs here: $(cat mount.err)"
  exit 77
fi
trap 'umount "$work/small" 2>/dev/null || true; rm -rf "$work"' EXIT
cat > good.yaml <<'YAML'
name: well-behaved
defaults: {repeat: 2, warmup: 0, timeout: 3}
datasets: [{dtype: f64, count: 1e5}]
formats:
  - raw
  - memory
  - {label: good-misbehave, plugin: misbehave, options: {mode: ok}}
YAML
expect_status 1 "$FB" --plugin-path "$FB_TEST_PLUGINS" run good.yaml --directory "$work/small" --json full-fs.json --no-console
python3 - full-fs.json <<'PY' || fail "full directory"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == 3, len(cases)
for c in cases:
    if c["format"]["plugin"] == "memory":
        assert c["status"] == "ok"
    else:
        assert c["status"] == "failed" and "No space left on device" in c["error"], c["error"]
PY
[ -z "$(ls -A small)" ] || fail "files left in the full directory: $(ls small)"

# A log on the full file system: the study goes on without it, and the
# table and the JSON record elsewhere are written (exit 1).
head -c 250k /dev/zero > small/filler
mkdir data
cat > many.yaml <<'YAML'
defaults: {repeat: 1, warmup: 0}
datasets: [{dtype: f64, count: [1e3, 2e3, 3e3, 4e3, 5e3, 6e3, 7e3, 8e3]}]
formats: [raw, memory]
YAML
expect_status 1 "$FB" run many.yaml --log small/run.jsonl --directory data --json full-log.json
expect_in "$work/err" "log 'small/run.jsonl': cannot append to log 'small/run.jsonl': No space left on device"
expect_in "$work/out" " raw "
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"]; assert len(c) == 16 and all(x["status"] == "ok" for x in c)' \
  full-log.json || fail "the cases after the log filled up were lost"
echo "full disk: ok"
