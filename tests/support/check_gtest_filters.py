#!/usr/bin/env python3
"""Checks that the gtest filters of the meson tests that share one test
program cover each of its tests exactly once: a program of several files
(tests/unit) is run once per file with that file's suites as a filter, and
a new suite that no filter names would otherwise never run.

usage: check_gtest_filters.py PROGRAM FILTER...   (FILTER as --gtest_filter takes it)
"""
import fnmatch
import subprocess
import sys


def listed_tests(program):
    out = subprocess.run([program, "--gtest_list_tests"], check=True, capture_output=True, text=True).stdout
    suite, names = None, []
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()  # "suite." (typed suites add "# TypeParam = ...")
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def matches(name, gtest_filter):
    positive, _, negative = gtest_filter.partition("-")
    if not any(fnmatch.fnmatchcase(name, p) for p in positive.split(":") if p):
        return False
    return not any(fnmatch.fnmatchcase(name, p) for p in negative.split(":") if p)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    program, filters = sys.argv[1], sys.argv[2:]
    names = listed_tests(program)
    if not names:
        sys.exit(f"{program} lists no test")
    bad = []
    for name in names:
        hits = [f for f in filters if matches(name, f)]
        if len(hits) != 1:
            bad.append(f"{name}: matched by {len(hits)} filters {hits}")
    if bad:
        print("each test must be run by exactly one meson test; add its suite to the filter of its file:")
        print("\n".join("  " + b for b in bad))
        sys.exit(1)
    print(f"{len(names)} tests, each run by exactly one of {len(filters)} filters")


if __name__ == "__main__":
    main()
