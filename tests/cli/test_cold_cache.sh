#!/usr/bin/env bash
# cache: cold end to end: after the cache step (fdatasync, posix_fadvise
# DONTNEED) the resident fraction that mincore() measures is near 0, while a
# warm read finds the file resident. The data folder is a fresh folder under
# TMPDIR (default /tmp); on tmpfs or ramfs there is no backing store to drop
# pages to, so the cold half cannot be checked: the test says so and reports
# SKIP (exit 77) instead of passing. Run it with TMPDIR on a disk to check it.
source "$(dirname "$0")/lib.sh"
cd "$work"
PY=/usr/bin/python3
cat > cold.yaml <<'YAML'
name: cold
defaults: {repeat: 3, warmup: 0, cache: [warm, cold]}
datasets: [{dtype: f64, count: 4e6}]
formats: [raw]
YAML
mkdir data
expect_status 0 "$FB" run cold.yaml --directory data --json cold.json --no-console
fs=$(stat -f -c %T data)
$PY - cold.json "$fs" <<'PY' || fail "cold cache residency"
import json, sys
cases = {c["params"]["cache"]: c for c in json.load(open(sys.argv[1]))["cases"]}
warm = [s["resident_fraction"] for s in cases["warm"]["samples"]]
cold = [s["resident_fraction"] for s in cases["cold"]["samples"]]
print(f"file system {sys.argv[2]}: resident fraction warm {warm}, cold {cold}")
assert len(warm) == 3 and len(cold) == 3, (warm, cold)
assert all(f > 0.9 for f in warm), warm
if sys.argv[2] not in ("tmpfs", "ramfs"):
    assert all(0 <= f < 0.1 for f in cold), cold
PY
case $fs in
  tmpfs|ramfs) echo "SKIP: $work is on $fs, which cannot drop a file's pages; cold residency not checked"; exit 77 ;;
esac
echo "cold cache: ok"
