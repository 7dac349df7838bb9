#!/usr/bin/env python3
"""Mutation check: do the tests catch a wrong number?

  scripts/mutants.py [BUILD_DIR] [--list scripts/mutants.txt] [--only ID,ID] [--jobs N] [--skip TEST,TEST]

Applies each mutant of the list (a small, plausible bug planted in core or
plugin code) to the source tree, one at a time, rebuilds BUILD_DIR (default
build-mutants, configured here as a release build when missing), runs the
test suite (every suite but fuzz and browser), restores the file, and prints
which mutants some test caught. A mutant whose text is not found exactly once
is "stale" (the code moved: update the list), and a list with a stale
mutant is refused before anything is built (`--check` does only that, in
a second); one that does not compile is "invalid". Exit status 0 when at least 90% of the valid mutants are caught,
1 otherwise, 2 for a stale or invalid mutant or a broken tree.

Run it on a clean tree (it refuses uncommitted changes, since it edits and
restores source files): docs/testing.md says how, and how to add a mutant.
Not part of the README's test command: one mutant costs a rebuild and a
test run (about a minute on a 2-core machine).
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_list(path):
    """Blocks of `[id]` then `file:`, `why:` and one or more find/replace
    pairs; `find:` and `replace:` values may continue on following lines
    indented by two spaces (the indent is removed)."""
    mutants, cur, key = [], None, None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#") and not line.startswith("  "):
                key = None if not line.strip() else key
                continue
            m = re.match(r"^\[([a-z0-9_.-]+)\]$", line)
            if m:
                cur = {"id": m.group(1), "file": None, "why": "", "edits": [], "line": number}
                mutants.append(cur)
                key = None
                continue
            if cur is None:
                sys.exit(f"{path}:{number}: text before the first [id]")
            m = re.match(r"^(file|why|find|replace):(?: (.*))?$", line)
            if m:
                key, value = m.group(1), m.group(2) or ""
                if key == "find":
                    cur["edits"].append([value, None])
                elif key == "replace":
                    if not cur["edits"] or cur["edits"][-1][1] is not None:
                        sys.exit(f"{path}:{number}: replace: without its find:")
                    cur["edits"][-1][1] = value
                else:
                    cur[key] = value
                continue
            if line.startswith("  ") and key in ("find", "replace"):
                i = 0 if key == "find" else 1
                cur["edits"][-1][i] += "\n" + line[2:]
                continue
            sys.exit(f"{path}:{number}: cannot read: {line!r}")
    for m in mutants:
        if not m["file"] or not m["edits"] or any(r is None for _, r in m["edits"]):
            sys.exit(f"{path}:{m['line']}: mutant {m['id']} needs file:, find: and replace:")
    return mutants


def apply(m):
    """The mutated text of m's file, or (None, why) when the mutant is stale:
    its file is missing or a find text does not occur exactly once."""
    try:
        text = open(os.path.join(ROOT, m["file"])).read()
    except OSError as e:
        return None, str(e)
    for find, replace in m["edits"]:
        n = text.count(find)
        if n != 1:
            return None, f"found {n} times in {m['file']}: {find.splitlines()[0]!r}"
        text = text.replace(find, replace)
    return text, ""


def stale_mutants(mutants):
    """[(mutant, why)] of every mutant that no longer applies to the code."""
    out = []
    for m in mutants:
        text, why = apply(m)
        if text is None:
            out.append((m, why))
    return out


def run(cmd, log, timeout=None):
    with open(log, "w") as out:
        try:
            return subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write(f"\n(timed out after {timeout} s)\n")
            return -1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build-mutants")
    ap.add_argument("--list", default=os.path.join(ROOT, "scripts", "mutants.txt"))
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant still applies to the code (no build, no tests); exit "
                    "2 naming the stale ones")
    ap.add_argument("--skip", default="", help="comma-separated test names not to run (e.g. the slowest, which "
                    "build example projects or flip every byte of a file); a survivor may then be caught by one of "
                    "them")
    a = ap.parse_args()
    mutants = parse_list(a.list)
    if a.only:
        wanted = set(a.only.split(","))
        mutants = [m for m in mutants if m["id"] in wanted]
        if len(mutants) != len(wanted):
            sys.exit(f"unknown ids: {sorted(wanted - {m['id'] for m in mutants})}")
    # A stale mutant guards nothing: refuse the list before any build.
    stale = stale_mutants(mutants)
    for m, why in stale:
        print(f"stale: {m['id']} (scripts/mutants.txt:{m['line']}): {why}", file=sys.stderr)
    if stale:
        print(f"{len(stale)} of {len(mutants)} mutants no longer apply to the code: rewrite them for the code "
              "as it is (docs/testing.md)", file=sys.stderr)
        return 2
    if a.check:
        print(f"{len(mutants)} mutants, each applies to the code exactly once")
        return 0
    if subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0:
        sys.exit("mutants.py edits and restores source files: commit or stash your changes first")
    build = a.build if os.path.isabs(a.build) else os.path.join(ROOT, a.build)
    logs = os.path.join(build, "mutant-logs")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        if run(["meson", "setup", build, "--buildtype=release", "-Dtests=true"], os.path.join(ROOT, ".mutants-setup.log")):
            sys.exit(f"meson setup {build} failed: see .mutants-setup.log")
    os.makedirs(logs, exist_ok=True)
    test_cmd = ["meson", "test", "-C", build, "--no-rebuild", "--num-processes", str(a.jobs), "--no-suite", "fuzz",
                "--no-suite", "browser", "--print-errorlogs", "--maxfail", "1"]  # one failing test catches it
    # mutants_list checks that the list applies to the source tree, which a
    # planted mutant changes: it would "catch" every mutant. Always left out.
    skip = set(a.skip.split(",")) if a.skip else set()
    skip.add("mutants_list")
    if skip:
        # meson test has no option to leave out single tests: name the others.
        listed = subprocess.run(["meson", "test", "-C", build, "--list", "--no-suite", "fuzz", "--no-suite", "browser"],
                                capture_output=True, text=True).stdout.splitlines()
        names = [line.rsplit(" / ", 1)[-1].strip() for line in listed if " / " in line]
        # A name shared by two suites (unit and cli "compare") is given once: it runs both.
        test_cmd += [t for t in dict.fromkeys(names) if t not in skip]
    print(f"baseline: build and test the unmutated tree in {build}", flush=True)
    if run(["ninja", "-C", build, "-j", str(a.jobs)], os.path.join(logs, "baseline-build.log")) or run(
            test_cmd, os.path.join(logs, "baseline-test.log"), timeout=1800):
        sys.exit(f"the unmutated tree does not build or pass its tests: see {logs}/baseline-*.log")

    results = []
    for m in mutants:
        path = os.path.join(ROOT, m["file"])
        original = open(path).read()
        text, _ = apply(m)
        start = time.time()
        try:
            with open(path, "w") as f:
                f.write(text)
            if run(["ninja", "-C", build, "-j", str(a.jobs)], os.path.join(logs, m["id"] + "-build.log")):
                verdict, detail = "invalid", f"does not compile: {logs}/{m['id']}-build.log"
            else:
                rc = run(test_cmd, os.path.join(logs, m["id"] + "-test.log"), timeout=1800)
                failed = []
                for line in open(os.path.join(logs, m["id"] + "-test.log")):
                    g = re.match(r"^\s*\d+/\d+\s+\S+ / (\S+)\s+(FAIL|TIMEOUT|ERROR)", line)
                    if g:
                        failed.append(g.group(1))
                verdict = "caught" if rc != 0 else "SURVIVED"
                detail = ("by " + ", ".join(sorted(set(failed)))) if failed else ("" if rc == 0 else f"exit {rc}")
        finally:
            with open(path, "w") as f:
                f.write(original)
        results.append((m, verdict, detail))
        print(f"{m['id']:32} {verdict:9} {detail}  ({time.time() - start:.0f} s)", flush=True)
    # Leave the build matching the restored tree.
    run(["ninja", "-C", build, "-j", str(a.jobs)], os.path.join(logs, "restore-build.log"))

    valid = [r for r in results if r[1] in ("caught", "SURVIVED")]
    caught = [r for r in valid if r[1] == "caught"]
    print()
    for m, verdict, _ in results:
        if verdict != "caught":
            print(f"{verdict}: {m['id']} ({m['file']}): {m['why']}")
    share = len(caught) / len(valid) if valid else 0
    print(f"\n{len(caught)} of {len(valid)} mutants caught ({share:.0%}); "
          f"{len(results) - len(valid)} stale or invalid")
    if len(results) != len(valid):
        return 2
    return 0 if share >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
