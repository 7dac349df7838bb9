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
  - scatter points (one chart per data set and record): x = payload / file
    bytes, y = payload / 1e6 / (write median + read median), data-front = 1
    exactly on the Pareto front of the chart; each format keeps one colour
    and marker in every chart of its data set, and formats differ;
  - sweep charts exist for the parameters named with --expect-sweep, split
    into small multiples: each point is a case of its record (data set, row
    label) with x = the case's value of the parameter and y = its median
    time; every case of every family of cases that differ only in the
    parameter (recomputed here) is drawn exactly once per phase, each line is
    one such family, each chart's facet (data-facet) holds for all its
    points, a chart has at most 8 lines, its lines differ in colour or dash,
    and a line keeps its colour in every chart of the parameter;
  - when the records ran on two or more MPI rank counts (context.ranks),
    charts of aggregate throughput against ranks: each point is a case of
    the record it names (data-record) with x = that record's rank count and
    y = payload / 1e6 / median time; every case of a data set and row label
    found in records of two or more rank counts is drawn once per phase;
    without two rank counts there is no such chart;
  - the order of the page: the answer (id answer) right under the title;
    every data set's heading is linked from the top
    (before the first chart) and followed by its throughput charts, before
    the next heading; the charts of time against count (a count sweep)
    before every other chart; every <table> comes after every chart's
    <figure>; every link (href="#...") leads to an element of the page, and
    the tables (id summary) and context (id context) are there;
  - the answer: for one record, the workload's recommendation
    (p.recommendation, "workload (...): pick ...") when the study states a
    workload, else the verdict's sentences (p.verdict), never both kinds
    there; for several records no verdict or recommendation anywhere on the
    page, but compare's sentences (p.comparison) with one RESULT line per
    record after the first, and per data set a chart of the ratios:
    each bar = median time of the record's case / median time of the first
    record's case of the same data set and row label (phase by phase);
  - read latency CDFs: a line per case, and markers at p50 and p99 only
    (data-percentile 50 and 99, at y = 50 and 99);
  - every colour of a series is one of Okabe and Ito's eight;
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
# Okabe & Ito, "Color Universal Design" (2008): the colour-blind-safe palette.
OKABE_ITO = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#000000", "#F0E442"}
MAX_LINES = 8
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


def disturbed(p):
    """docs/methodology.md, "Disturbed samples", written again here from the record's accounting."""
    a = p.get("accounting")
    if not a or not a["measured"] or not (p["wall_s"] or 0) > 0:
        return False
    return outside(p) > 0.02 * p["wall_s"]


def outside(p):
    a = p.get("accounting")
    if not a or not a["measured"] or not (p["wall_s"] or 0) > 0:
        return 0
    own_cpus_full = a["cpus"] > 0 and p["user_s"] + p["sys_s"] >= 0.9 * a["cpus"] * p["wall_s"]
    wait = 0 if own_cpus_full else a["thread_wait_s"]
    return min(p["wall_s"], a["steal_s"] + wait)


def all_times(c, phase):
    """Every recorded sample's time (the whiskers: min..max over the repetitions)."""
    return [s[phase]["wall_s"] for s in c["samples"] if s[phase]["wall_s"] is not None]


def times(c, phase):
    """The samples a phase's estimate rests on: the undisturbed ones when all are, or when 6 or more are;
    otherwise every sample's net time (wall less what was taken from it)."""
    every = [s[phase] for s in c["samples"] if s[phase]["wall_s"] is not None]
    clean = [p for p in every if not disturbed(p)]
    if len(clean) == len(every) or len(clean) >= 6:
        return [p["wall_s"] for p in clean]
    return [p["wall_s"] - outside(p) for p in every]


def phase_bytes(c, phase):
    """The bytes a phase moves: a pattern's read moves its operations' bytes (latency.bytes), else the payload."""
    if phase == "read":
        for s in c["samples"]:
            if s["read"].get("latency"):
                return s["read"]["latency"]["bytes"]
    return c["payload_bytes"]


def points_of(svg):
    """The data points of a chart, whatever their marker shape."""
    return [el for el in svg.iter() if el.get("class") == "point"]


def attributes(record_index, c):
    """What identifies a case, by the names the report's data-facet uses."""
    a = {"record": str(record_index), "format": c["format"]["base_label"] or c["format"]["plugin"],
         "dtype": c["dataset"]["dtype"], "count": str(c["dataset"]["count"]),
         "data": json.dumps([c["dataset"].get(k) for k in ("distribution", "seed", "file", "file_plugin")])}
    for k, v in c["format"]["options"].items():
        a["option " + k] = v
    p = c["params"]
    a["chunk"] = str(p["chunk_bytes"])
    a["align_offset"] = str(p.get("align_offset_bytes", 0))
    for k in ("cache", "sync", "read", "repeat", "warmup", "min_time_s", "timeout_s"):
        a[k] = str(p.get(k))
    return a


def parameter_value(c, param):
    """The case's numeric value of a swept parameter, or None."""
    if param == "count":
        return float(c["dataset"]["count"])
    if param == "chunk":
        return float(c["params"]["chunk_bytes"]) if c["params"]["chunk_bytes"] > 0 else None
    if param.startswith("option "):
        try:
            return float(c["format"]["options"][param[7:]])
        except (KeyError, ValueError):
            return None
    return None


def swept_cases(records, param):
    """(record index, case key) of every case in a family of two or more values of `param`."""
    families = {}
    for i, (_, rec) in enumerate(records):
        for c in rec["cases"]:
            if c["status"] != "ok" or not c["samples"]:
                continue
            x = parameter_value(c, param)
            if x is None:
                continue
            a = attributes(i, c)
            a.pop(param, None)
            families.setdefault(json.dumps(a, sort_keys=True), []).append((x, (i, c["key"])))
    out = set()
    for members in families.values():
        if len({x for x, _ in members}) >= 2:
            out.update(k for _, k in members)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--svg-dir")
    ap.add_argument("--expect-sweep", action="append", default=[])
    ap.add_argument("--expect-lossy", action="store_true",
                    help="the records hold lossy cases: some error-front point must be checked")
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

    checked_bars = checked_points = checked_speedups = checked_sweeps = checked_errors = 0
    datasets = []
    for _, rec in records:
        for c in rec["cases"]:
            if c["dataset"]["name"] not in datasets:
                datasets.append(c["dataset"]["name"])

    # The page leads with the answer: links at the top to each data set's
    # section, which holds its heading then its charts; every table comes
    # after every chart; each link leads to an element of the page.
    body = list(root.iter())  # document order
    at = {id(el): i for i, el in enumerate(body)}
    figures = [el for el in body if el.tag == XHTML + "figure"]
    tables = [el for el in body if el.tag == XHTML + "table"]
    check(bool(figures), "no <figure> in the page")
    if figures and tables:
        check(at[id(figures[-1])] < at[id(tables[0])], "a <table> comes before the last chart's <figure>")
    # The answer right under the title: the first element after <h1>.
    page = root.find(XHTML + "body")
    kids = list(page) if page is not None else []
    h1 = next((i for i, el in enumerate(kids) if el.tag == XHTML + "h1"), None)
    answer = kids[h1 + 1] if h1 is not None and h1 + 1 < len(kids) else None
    if check(answer is not None and answer.get("id") == "answer",
             f"the element after the title is {None if answer is None else (answer.tag, answer.get('id'))}, "
             f"not the answer"):
        def classed(el, cls):
            return [e for e in el.iter() if cls in (e.get("class") or "").split()]

        def text(el):
            return " ".join("".join(el.itertext()).split())
        if several:
            for cls in ("verdict", "recommendation"):
                check(not classed(root, cls), f"several records: {len(classed(root, cls))} element(s) of class "
                                              f"{cls} (one verdict per record, contradicting each other)")
            results = [text(e) for e in classed(answer, "comparison") if text(e).startswith("RESULT:")]
            check(len(results) == len(records) - 1,
                  f"several records: {len(results)} RESULT lines in the answer for {len(records) - 1} comparisons")
        else:
            workload = records[0][1]["study"].get("workload")
            recs, verdicts = classed(answer, "recommendation"), classed(answer, "verdict")
            if workload:
                check(any(text(e).startswith("workload (") and ": pick " in text(e) for e in recs),
                      "the study states a workload, the answer has no recommendation")
                check(not verdicts, "the study states a workload, the answer holds verdict sentences")
            else:
                check(not recs, "the study states no workload, the answer holds a recommendation")
    # A count sweep's charts of time against count come first.
    by_count = [el for el in figures if any(s.get("data-parameter") == "count" for s in el.iter(SVG + "svg"))]
    if by_count:
        check(figures[:len(by_count)] == by_count,
              f"{len(by_count)} charts of time against count, not the first charts of the page")
    anchors = {el.get("id"): el for el in body if el.get("id")}
    links = [el for el in body if el.tag == XHTML + "a" and (el.get("href") or "").startswith("#")]
    for link in links:
        check(link.get("href")[1:] in anchors, f"link {link.get('href')} ({link.text!r}) leads nowhere in the page")
    for anchor in ("summary", "context"):
        check(anchor in anchors, f"no element with id {anchor!r}")
    headings = [el for el in body if el.tag == XHTML + "h2"]
    for d in datasets:
        h2 = [h for h in headings if h.text == f"Data set {d}"]
        if not check(len(h2) == 1, f"data set {d}: {len(h2)} headings"):
            continue
        h2 = h2[0]
        check(any(link.get("href") == "#" + (h2.get("id") or "") and
                  (not figures or at[id(link)] < at[id(figures[0])]) for link in links),
              f"data set {d}: no link to its heading before the first chart")
        later = [h for h in headings if at[id(h)] > at[id(h2)]]
        end = at[id(later[0])] if later else len(body)
        for phase in ("write", "read"):
            chart = charts.get(f"throughput-{phase}-{safe_id(d)}")
            check(chart is not None and at[id(h2)] < at[id(chart)] < end,
                  f"data set {d}: its {phase} throughput chart is not in its section")

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
                    tp = [throughput(phase_bytes(c, phase), x) for x in all_times(c, phase)]
                    if close(value, throughput(phase_bytes(c, phase), statistics.median(t))) and close(
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

        pareto = [(cid, svg) for cid, svg in charts.items()
                  if cid.startswith("pareto-") and svg.get("data-dataset") == d]
        format_marks = {}  # format label -> (fill, marker tag) across the charts of this data set
        for cid, svg in pareto:
            pts = points_of(svg)
            colours = {}
            for p in pts:
                rec, fmt_label = record_of(p.get("data-series"))
                if not check(rec is not None, f"{cid}: point of unknown series {p.get('data-series')}"):
                    continue
                if several:
                    check(svg.get("data-record") == next(n for n, r in records if r is rec),
                          f"{cid}: point of {p.get('data-series')} in the chart of record {svg.get('data-record')}")
                x, y = float(p.get("data-x")), float(p.get("data-y"))
                ok = False
                for c in candidates(rec, d, p.get("data-label")):
                    if c["format"]["label"] != fmt_label:
                        continue
                    # A pattern reads part of the file: no round trip of the payload.
                    if c["params"].get("access", "whole") != "whole":
                        continue
                    if c["file_bytes"] > 0 and times(c, "write") and times(c, "read"):
                        t = statistics.median(times(c, "write")) + statistics.median(times(c, "read"))
                        if close(x, c["payload_bytes"] / c["file_bytes"]) and close(y, c["payload_bytes"] / 1e6 / t):
                            ok = True
                check(ok, f"{cid}: point {p.get('data-label')} ({x}, {y}) matches no case")
                checked_points += 1
                mark = (p.get("fill"), p.tag)
                check(p.get("fill") in OKABE_ITO, f"{cid}: {fmt_label}: colour {p.get('fill')} is not Okabe-Ito")
                check(format_marks.setdefault(fmt_label, mark) == mark,
                      f"{cid}: format {fmt_label} drawn as {mark}, elsewhere as {format_marks[fmt_label]}")
                colours.setdefault(mark, set()).add(fmt_label)
            for mark, labels in colours.items():
                check(len(labels) == 1, f"{cid}: formats {sorted(labels)} share colour and marker {mark}")
            xy = [(float(p.get("data-x")), float(p.get("data-y"))) for p in pts]
            for p, (x, y) in zip(pts, xy):
                dominated = any(qx >= x and qy >= y and (qx > x or qy > y) for qx, qy in xy)
                check(p.get("data-front") == ("0" if dominated else "1"),
                      f"{cid}: {p.get('data-label')}: data-front {p.get('data-front')}, dominated={dominated}")

        # Lossy cases (verified against a tolerance, an error > 0): size
        # ratio against max abs error, one chart per record that has any,
        # each such case exactly once; the front: no other point with an
        # equal-or-larger ratio and an equal-or-smaller error (one strictly).
        lossy = {}
        for name, rec in records:
            for c in rec["cases"]:
                v = c.get("verify", {})
                if (c["dataset"]["name"] == d and c["status"] == "ok" and c["file_bytes"] > 0
                        and v.get("checked") and not v.get("lossless_expected")
                        and (v.get("max_abs_error") or 0) > 0):
                    lossy.setdefault(name, []).append(c)
        fronts = {cid: svg for cid, svg in charts.items()
                  if cid.startswith("error-front-") and svg.get("data-dataset") == d}
        check(len(fronts) == len(lossy),
              f"data set {d}: {len(fronts)} error charts for {len(lossy)} records with lossy cases")
        for cid, svg in fronts.items():
            name = svg.get("data-record") if several else records[0][0]
            mine = list(lossy.get(name, []))
            pts = points_of(svg)
            check(len(pts) == len(mine), f"{cid}: {len(pts)} points for {len(mine)} lossy cases")
            for p in pts:
                x, y = float(p.get("data-x")), float(p.get("data-y"))
                match = [c for c in mine
                         if close(x, c["payload_bytes"] / c["file_bytes"])
                         and close(y, c["verify"]["max_abs_error"])]
                if check(match, f"{cid}: point {p.get('data-label')} ({x}, {y}) matches no lossy case"):
                    mine.remove(match[0])
                checked_errors += 1
            xy = [(float(p.get("data-x")), float(p.get("data-y"))) for p in pts]
            for p, (x, y) in zip(pts, xy):
                dominated = any(qx >= x and qy <= y and (qx > x or qy < y) for qx, qy in xy)
                check(p.get("data-front") == ("0" if dominated else "1"),
                      f"{cid}: {p.get('data-label')}: data-front {p.get('data-front')}, dominated={dominated}")

    for param in a.expect_sweep:
        expected = swept_cases(records, param)
        check(len(expected) > 0, f"the records have no sweep of {param} (test set-up)")
        for phase in ("write", "read"):
            mine = [(cid, svg) for cid, svg in charts.items()
                    if svg.get("data-parameter") == param and svg.get("data-phase") == phase]
            if not check(mine, f"missing sweep charts of {param}, {phase} (have {sorted(charts)})"):
                continue
            drawn = []
            line_colour = {}  # line -> (stroke, dash) across the charts of the parameter
            for cid, svg in mine:
                facet = json.loads(svg.get("data-facet"))
                pts = points_of(svg)
                series = {p.get("data-series") for p in pts}
                check(2 <= len(pts), f"{cid}: fewer than 2 points")
                check(len(series) <= MAX_LINES, f"{cid}: {len(series)} lines, more than {MAX_LINES}")
                styles = {}
                for pl in (el for el in svg.iter(SVG + "polyline") if el.get("class") == "line"):
                    st = (pl.get("stroke"), pl.get("stroke-dasharray", ""))
                    check(pl.get("stroke") in OKABE_ITO, f"{cid}: line colour {pl.get('stroke')} is not Okabe-Ito")
                    check(st not in styles.values(), f"{cid}: lines {pl.get('data-series')!r} and "
                          f"{[k for k, v in styles.items() if v == st]} share colour and dash {st}")
                    styles[pl.get("data-series")] = st
                    check(line_colour.setdefault(pl.get("data-series"), st) == st,
                          f"{cid}: line {pl.get('data-series')!r} drawn as {st}, elsewhere as "
                          f"{line_colour[pl.get('data-series')]}")
                families = {}
                for p in pts:
                    rec, _ = record_of(p.get("data-series"))
                    if not check(rec is not None, f"{cid}: point of unknown series {p.get('data-series')}"):
                        continue
                    index = next(i for i, (_, r) in enumerate(records) if r is rec)
                    x, y = float(p.get("data-x")), float(p.get("data-y"))
                    matches = []
                    for c in candidates(rec, p.get("data-dataset"), p.get("data-label")):
                        v = parameter_value(c, param)
                        if v is not None and close(x, v) and times(c, phase) and close(
                                y, statistics.median(times(c, phase))):
                            matches.append(c)

                    # Two cases of one row label can have equal medians (a
                    # memory read of 1 us, the clock's steps): the point is
                    # the one of the chart's facet not yet drawn, if any.
                    def fits(c):
                        attrs = attributes(index, c)
                        return all(k not in attrs or attrs[k] == v for k, v in facet.items())
                    match = next((c for c in matches if fits(c) and (index, c["key"]) not in drawn), None)
                    match = match or next((c for c in matches if fits(c)), None) or (matches[-1] if matches else None)
                    if not check(match is not None, f"{cid}: point {p.get('data-series')}/{p.get('data-label')} "
                                                    f"({x}, {y}) matches no case's {param} and median {phase} time"):
                        continue
                    drawn.append((index, match["key"]))
                    attrs = attributes(index, match)
                    for k, v in facet.items():
                        check(k not in attrs or attrs[k] == v,
                              f"{cid}: case {match['key']} has {k}={attrs.get(k)}, the chart's facet says {v}")
                    attrs.pop(param, None)
                    families.setdefault(p.get("data-series"), set()).add(json.dumps(attrs, sort_keys=True))
                    checked_sweeps += 1
                for line, ids in families.items():
                    check(len(ids) == 1, f"{cid}: line {line!r} joins cases that differ in more than {param}")
            check(sorted(drawn) == sorted(expected),
                  f"sweep of {param}, {phase}: {len(drawn)} points drawn for {len(expected)} swept cases; "
                  f"missing {sorted(expected - set(drawn))[:5]}, extra or repeated "
                  f"{[k for k in drawn if drawn.count(k) > 1 or k not in expected][:5]}")

    # Aggregate throughput against MPI ranks.
    rank_counts = {rec["context"].get("ranks", 1) for _, rec in records}
    rank_charts = [(cid, svg) for cid, svg in charts.items() if svg.get("data-parameter") == "ranks"]
    check(bool(rank_charts) == (len(rank_counts) >= 2),
          f"{len(rank_charts)} charts against ranks for records of rank counts {sorted(rank_counts)}")
    checked_ranks = 0
    for phase in ("write", "read"):
        expected = {}  # (dataset, row label) -> {ranks: record index} (first record of each rank count)
        drawn = []
        for cid, svg in rank_charts:
            if svg.get("data-phase") != phase:
                continue
            for p in points_of(svg):
                name = p.get("data-record")
                index = next((i for i, (n, _) in enumerate(records) if n == name), None)
                if not check(index is not None, f"{cid}: point of unknown record {name!r}"):
                    continue
                rec = records[index][1]
                x, y = float(p.get("data-x")), float(p.get("data-y"))
                check(close(x, rec["context"].get("ranks", 1)), f"{cid}: point at {x} ranks from {name}, "
                      f"which ran on {rec['context'].get('ranks', 1)}")
                ok = any(times(c, phase) and close(y, throughput(phase_bytes(c, phase), statistics.median(times(c, phase))))
                         for c in candidates(rec, p.get("data-dataset"), p.get("data-label")))
                check(ok, f"{cid}: point {name}/{p.get('data-label')} = {y} MB/s matches no case's aggregate {phase}")
                drawn.append((p.get("data-dataset"), p.get("data-label"), int(x)))
                checked_ranks += 1
    if len(rank_counts) >= 2:
        for phase in ("write", "read"):
            pts = [(p.get("data-dataset"), p.get("data-series"), int(float(p.get("data-x"))))
                   for cid, svg in rank_charts if svg.get("data-phase") == phase for p in points_of(svg)]
            check(len(pts) == len(set(pts)), f"{phase}: a case is drawn twice against ranks")
            # Every case (by its key) found under two or more rank counts.
            seen = {}
            for _, rec in records:
                for c in rec["cases"]:
                    if c["status"] == "ok" and c["samples"]:
                        seen.setdefault(c["key"], set()).add(
                            rec["context"].get("ranks", 1))
            want = sum(len(v) for v in seen.values() if len(v) >= 2)
            check(len(pts) == want, f"{phase}: {len(pts)} points against ranks, want {want}")

    # Several records: per data set the ratios against the first record.
    checked_ratios = 0
    if several:
        base_name, base = records[0]
        for d in datasets:
            cid = f"ratio-{safe_id(d)}"
            bars = [r for r in charts[cid].iter(SVG + "rect") if r.get("class") == "bar"] if cid in charts else []
            for name, rec in records[1:]:
                # Pairs compare can compare: one key, both ok with samples, the same payload.
                pairs = sum(1 for c in rec["cases"] for b in base["cases"]
                            if c["dataset"]["name"] == d and b["key"] == c["key"] and times(c, "write")
                            and times(b, "write") and c["status"] == "ok" and b["status"] == "ok"
                            and c["payload_bytes"] == b["payload_bytes"])
                mine = [b for b in bars if b.get("data-series", "").startswith(name + ": ")]
                check(len(mine) >= 2 * pairs, f"{cid}: {len(mine)} ratio bars of {name} for {pairs} cases it "
                                              f"shares with {base_name}, write and read")
            for b in bars:
                rec, phase = record_of(b.get("data-series"))
                if not check(rec is not None and rec is not base and phase in ("write", "read"),
                             f"{cid}: bar of series {b.get('data-series')!r}"):
                    continue
                value, ok = float(b.get("data-value")), False
                for c in candidates(rec, d, b.get("data-label")):
                    for o in candidates(base, d, b.get("data-label")):
                        if times(c, phase) and times(o, phase) and close(
                                value, statistics.median(times(c, phase)) / statistics.median(times(o, phase))):
                            ok = True
                check(ok, f"{cid}: ratio {b.get('data-series')}/{b.get('data-label')} = {value} matches no case's "
                          f"median against {base_name}'s")
                checked_ratios += 1
    else:
        check(not any(cid.startswith("ratio-") for cid in charts), "one record, yet a chart of ratios")

    # Latency CDFs: lines, markers at p50 and p99 only.
    for cid, svg in charts.items():
        if not cid.startswith("latency-cdf-"):
            continue
        lines = [el for el in svg.iter(SVG + "polyline") if el.get("class") == "line"]
        check(len(lines) == int(svg.get("data-lines")), f"{cid}: {len(lines)} lines, data-lines {svg.get('data-lines')}")
        for p in points_of(svg):
            check(p.get("data-percentile") in ("50", "99") and float(p.get("data-y")) == float(p.get("data-percentile")),
                  f"{cid}: a marker at percentile {p.get('data-y')} ({p.get('data-percentile')}), not p50 or p99")
        check(len(points_of(svg)) == 2 * len(lines), f"{cid}: {len(points_of(svg))} markers for {len(lines)} lines")

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
    if a.expect_lossy:
        check(checked_errors > 0, "no point of a size-vs-error chart checked")
    for f in failures:
        print("FAIL:", f)
    print(f"check_report: {len(charts)} charts, {checked_bars} bars, {checked_speedups} speed-ups, "
          f"{checked_points} scatter points, {checked_errors} error points, {checked_sweeps} sweep points, {checked_ranks} points against ranks, {checked_ratios} ratios checked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
