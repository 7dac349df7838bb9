#!/usr/bin/env python3
"""One line per fuzz target from a meson test JSON log (docs/fuzzing.md).

  scripts/fuzz-summary.py build-fuzz/meson-logs/testlog.json

For each test of suite `fuzz`: its result, how long libFuzzer ran, the
executions and their rate, the new corpus units, the peak RSS, and the
crash, leak or timeout input it left, if any (the lines `Done N runs in S
second(s)`, `stat::...` and `artifact_prefix=...; Test unit written to
...` of libFuzzer's output, which run_fuzz.sh asks for with
-print_final_stats=1). A target whose fuzzer did not print its final stats
(killed, or stopped at a finding) shows '-' there. Exit status 1 when any
fuzz test did not pass.
"""
import json
import re
import sys


def stats(text):
    found = {}
    m = re.search(r"^Done (\d+) runs in (\d+) second", text, re.M)
    if m:
        found["runs"], found["seconds"] = int(m.group(1)), int(m.group(2))
    for key in ("average_exec_per_sec", "new_units_added", "peak_rss_mb"):
        m = re.search(rf"^stat::{key}:\s+(\d+)", text, re.M)
        if m:
            found[key] = int(m.group(1))
    m = re.search(r"Test unit written to (\S+)", text)
    if m:
        found["input"] = m.group(1)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows, failed = [], False
    with open(sys.argv[1]) as f:
        for line in f:
            t = json.loads(line)
            if ":fuzz / " not in t["name"]:  # "PROJECT:SUITE / TEST"
                continue
            s = stats((t.get("stdout") or "") + (t.get("stderr") or ""))
            failed |= t["result"] != "OK"
            rows.append((t["name"].split("/")[-1].strip(), t["result"], s))
    print(f"{'target':28} {'result':7} {'seconds':>7} {'runs':>11} {'exec/s':>7} {'new':>6} {'rss MB':>6}  input")
    for name, result, s in rows:
        cell = lambda k: str(s[k]) if k in s else "-"
        print(f"{name:28} {result:7} {cell('seconds'):>7} {cell('runs'):>11} {cell('average_exec_per_sec'):>7} "
              f"{cell('new_units_added'):>6} {cell('peak_rss_mb'):>6}  {s.get('input', '')}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
