#!/usr/bin/env python3
"""Checks a formatbench HTML report (and its --svg-dir charts) with a real XML
parser (xml.etree from the standard library) against the results records it
was made from. Every figure is recomputed here from the raw samples:

  - the page parses as XML (XHTML-compatible), has no script, no external
    resource (src/href to another document), and one <svg> per chart;
  - every chart has axis titles, tick labels and a legend;
  - throughput bars: value = payload / 1e6 / median time, error bar = min..max
    of the per-repetition throughputs, one bar per case with samples;
  - speed-up bars (when the study has a baseline): baseline median / median;
  - scatter points: x = payload / file bytes, y = payload / 1e6 / (write
    median + read median), data-front = 1 exactly on the Pareto front;
  - sweep charts exist for the parameters named with --expect-sweep, and each
    point's y is a median time of a case of that record;
  - each standalone SVG file parses and equals the chart inlined in the page.

Usage: check_report.py REPORT.html [--svg-dir DIR] [--expect-sweep P]... RESULTS.json...
Exit status 0 when every check passes; otherwise the failures are printed.
"""
import argparse
import json
import os
import re
import statistics
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"
failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def safe_id(text):
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)[:80]


def throughput(payload, t):
    return payload / 1e6 / t if t > 0 else None


def candidates(record, dataset, row_label):
    """Cases of `dataset` whose row label can be `row_label` (label, or label + ' [...]')."""
    out = []
    for c in record["cases"]:
        if c["dataset"]["name"] != dataset:
            continue
        label = c["format"]["label"]
        if row_label == label or row_label.startswith(label + " ["):
            out.append(c)
    return out


def times(c, phase):
    return [s[phase]["wall_s"] for s in c["samples"] if s[phase]["wall_s"] is not None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--svg-dir")
    ap.add_argument("--expect-sweep", action="append", default=[])
    a = ap.parse_args()

    text = open(a.html, encoding="utf-8").read()
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        print(f"FAIL: {a.html} is not well-formed XML: {e}")
        return 1
    check(root.tag == XHTML + "html", f"root element is {root.tag}, not XHTML html")
    check(not any(el.tag.endswith("script") for el in root.iter()), "the page has a <script>")
    for el in root.iter():
        for attr in ("src", "href", "{http://www.w3.org/1999/xlink}href"):
            v = el.get(attr)
            check(v is None or v.startswith("#"), f"external reference {attr}={v!r} on <{el.tag}>")
        if el.tag.endswith("link"):
            check(False, "the page has a <link> element")
    style = "".join(el.text or "" for el in root.iter(XHTML + "style"))
    check("@import" not in style and "url(" not in style, "the CSS loads something")

    # Records are named by file name, or by the path given and position when
    # two share a file name (as `formatbench report` names them).
    names = [os.path.basename(p) for p in a.results]
    names = [f"{p} ({i + 1})" if names.count(n) > 1 else n for i, (p, n) in enumerate(zip(a.results, names))]
    records = [(n, json.load(open(p, encoding="utf-8"))) for n, p in zip(names, a.results)]
    several = len(records) > 1

    def record_of(series, phase=None):
        """The record a series belongs to ('write', or 'NAME: write' with several records)."""
        if not several:
            return records[0][1], series
        for name, rec in records:
            if series == name or series.startswith(name + ": "):
                return rec, series[len(name) + 2:] if series != name else ""
        return None, None

    charts = {svg.get("data-chart"): svg for svg in root.iter(SVG + "svg")}
    check(len(charts) > 0, "no chart in the report")
    for cid, svg in charts.items():
        texts = [t for t in svg.iter(SVG + "text")]
        classes = [t.get("class") for t in texts]
        check("axis-title" in classes, f"chart {cid}: no axis title")
        check("tick" in classes, f"chart {cid}: no tick labels")
        check("legend-entry" in classes, f"chart {cid}: no legend")
        check(svg.find(SVG + "title") is not None and svg.find(SVG + "title").text, f"chart {cid}: no title")

    checked_bars = checked_points = checked_speedups = checked_sweeps = 0
    datasets = []
    for _, rec in records:
        for c in rec["cases"]:
            if c["dataset"]["name"] not in datasets:
                datasets.append(c["dataset"]["name"])

    for d in datasets:
        for phase in ("write", "read"):
            cid = f"throughput-{phase}-{safe_id(d)}"
            if not check(cid in charts, f"missing chart {cid}"):
                continue
            bars = [r for r in charts[cid].iter(SVG + "rect") if r.get("class") == "bar"]
            for name, rec in records:
                want = [c for c in rec["cases"] if c["dataset"]["name"] == d and times(c, phase)]
                mine = [b for b in bars if record_of(b.get("data-series"))[0] is rec]
                check(len(mine) == len(want), f"{cid}: {name}: {len(mine)} bars for {len(want)} cases with samples")
            for b in bars:
                rec, _ = record_of(b.get("data-series"))
                if not check(rec is not None, f"{cid}: bar of unknown series {b.get('data-series')}"):
                    continue
                value = float(b.get("data-value"))
                ok = False
                for c in candidates(rec, d, b.get("data-label")):
                    t = times(c, phase)
                    if not t:
                        continue
                    tp = [throughput(c["payload_bytes"], x) for x in t]
                    if close(value, throughput(c["payload_bytes"], statistics.median(t))) and close(
                        float(b.get("data-lo")), min(tp)
                    ) and close(float(b.get("data-hi")), max(tp)):
                        ok = True
                check(ok, f"{cid}: bar {b.get('data-series')}/{b.get('data-label')} = {value} "
                          f"[{b.get('data-lo')}, {b.get('data-hi')}] matches no case")
                checked_bars += 1

        cid = f"speedup-{safe_id(d)}"
        has_baseline = any(rec["study"]["baseline"] for _, rec in records)
        if has_baseline and cid in charts:
            for b in (r for r in charts[cid].iter(SVG + "rect") if r.get("class") == "bar"):
                rec, phase = record_of(b.get("data-series"))
                if not check(rec is not None, f"{cid}: bar of unknown series {b.get('data-series')}"):
                    continue
                baseline = rec["study"]["baseline"]
                bases = [c for c in rec["cases"] if c["dataset"]["name"] == d and
                         (c["format"]["label"] == baseline or c["format"]["base_label"] == baseline)]
                value = float(b.get("data-value"))
                ok = False
                for c in candidates(rec, d, b.get("data-label")):
                    for base in bases:
                        if times(base, phase) and times(c, phase) and close(
                                value, statistics.median(times(base, phase)) / statistics.median(times(c, phase))):
                            ok = True
                check(ok, f"{cid}: speed-up {b.get('data-series')}/{b.get('data-label')} = {value} matches no case")
                checked_speedups += 1
        elif has_baseline:
            check(False, f"missing chart {cid}")

        cid = f"pareto-{safe_id(d)}"
        if cid in charts:
            by_series = {}
            for p in (c for c in charts[cid].iter(SVG + "circle") if c.get("class") == "point"):
                by_series.setdefault(p.get("data-series"), []).append(p)
                rec, _ = record_of(p.get("data-series")) if several else (records[0][1], "")
                if not check(rec is not None, f"{cid}: point of unknown series {p.get('data-series')}"):
                    continue
                x, y = float(p.get("data-x")), float(p.get("data-y"))
                ok = False
                for c in candidates(rec, d, p.get("data-label")):
                    if c["file_bytes"] > 0 and times(c, "write") and times(c, "read"):
                        t = statistics.median(times(c, "write")) + statistics.median(times(c, "read"))
                        if close(x, c["payload_bytes"] / c["file_bytes"]) and close(y, c["payload_bytes"] / 1e6 / t):
                            ok = True
                check(ok, f"{cid}: point {p.get('data-label')} ({x}, {y}) matches no case")
                checked_points += 1
            for series, pts in by_series.items():
                xy = [(float(p.get("data-x")), float(p.get("data-y"))) for p in pts]
                for p, (x, y) in zip(pts, xy):
                    dominated = any(qx >= x and qy >= y and (qx > x or qy > y) for qx, qy in xy)
                    check(p.get("data-front") == ("0" if dominated else "1"),
                          f"{cid}: {p.get('data-label')}: data-front {p.get('data-front')}, dominated={dominated}")

    for param in a.expect_sweep:
        for phase in ("write", "read"):
            cid = f"sweep-{safe_id(param)}-{phase}"
            if not check(cid in charts, f"missing sweep chart {cid} (have {sorted(charts)})"):
                continue
            pts = [c for c in charts[cid].iter(SVG + "circle") if c.get("class") == "point"]
            check(len(pts) >= 2, f"{cid}: fewer than 2 points")
            all_medians = [statistics.median(times(c, phase)) for _, rec in records for c in rec["cases"]
                           if times(c, phase)]
            for p in pts:
                y = float(p.get("data-y"))
                check(any(close(y, m) for m in all_medians), f"{cid}: point y={y} is no case's median {phase} time")
                checked_sweeps += 1

    if a.svg_dir:
        files = sorted(f for f in os.listdir(a.svg_dir) if f.endswith(".svg"))
        check(len(files) == len(charts), f"{len(files)} SVG files for {len(charts)} charts")
        for f in files:
            try:
                svg = ET.parse(os.path.join(a.svg_dir, f)).getroot()
            except ET.ParseError as e:
                check(False, f"{f}: not well-formed: {e}")
                continue
            cid = f[:-4]
            check(svg.tag == SVG + "svg", f"{f}: root is {svg.tag}")
            if check(cid in charts, f"{f}: no chart {cid} in the page"):
                inline = charts[cid]
                inline.tail = svg.tail = None  # the text after the element is not part of the chart
                check(ET.tostring(svg) == ET.tostring(inline), f"{f}: differs from the inlined chart")

    check(checked_bars > 0, "no throughput bar checked")
    for f in failures:
        print("FAIL:", f)
    print(f"check_report: {len(charts)} charts, {checked_bars} bars, {checked_speedups} speed-ups, "
          f"{checked_points} scatter points, {checked_sweeps} sweep points checked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
