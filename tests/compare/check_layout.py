#!/usr/bin/env python3
"""Checks the layout of a formatbench HTML report in headless Chromium
(Debian's /usr/bin/chromium, driven over --remote-debugging-pipe by cdp.py).
The page is opened three times: a 1280 px wide screen, a 420 px narrow
screen (charts must scale down) and print media at 680 px (A4 less 15 mm
margins at 96 px per inch);
layout_probe.js measures every chart as laid out, and this script checks:

  - the page never scrolls sideways, and every chart lies within the page's
    content box; on the wide screen no chart is scaled down (its own width
    fits), on the narrow screen and on paper charts scale to the width;
  - every text of a chart (title, subtitle, ticks, axis titles, category
    labels, legend entries) lies inside the chart's viewBox, and no two texts
    of a chart overlap (so no legend entry hides another and nothing is cut);
  - every mark (bar, point, line, front, error bar, reference) lies inside the
    viewBox, and no two markers of a scatter (size vs speed, size vs error)
    overlap;
  - every chart has a legend;
  - on the wide screen, with the page's style sheets disabled every text of
    every chart is where it was: a chart depends on no CSS of the page, so
    the standalone SVG files (equal to the inlined charts, check_report.py)
    look the same (compared at full size: scaled text moves by a fraction of
    a pixel with the font's hinting);
  - in print, every figure avoids page breaks inside it;
  - the first chart's top is above the first table's top (the page leads
    with its charts; the tables come after them);
  - with --svg-dir, each standalone SVG file opened on its own has every text
    exactly where the same chart has it in the page, and passes the checks
    above;
  - with --first-screen TEXT (repeatable), on a 1280 x 800 screen before any
    scrolling, a paragraph whose whole text is TEXT (spaces as the browser
    renders them) lies entirely within the viewport: the first screen holds
    the answer.

Usage: check_layout.py REPORT.html [--svg-dir DIR] [--png FILE] [--chromium PATH] [--min-charts N]
                       [--first-screen TEXT]... [--first-screen-png FILE]
--png saves a full-page screenshot of the wide screen, --first-screen-png
the 1280 x 800 first screen. Exit status 0 when every check passes, 1
otherwise, 77 (skip) when Chromium is not installed.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

TOLERANCE = 0.5  # px: rounding of the layout
failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
    return cond


def inside(box, width, height):
    x0, y0, x1, y1 = box
    return x0 >= -TOLERANCE and y0 >= -TOLERANCE and x1 <= width + TOLERANCE and y1 <= height + TOLERANCE


def overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE and min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE


def fmt_box(b):
    return "[" + ", ".join(f"{v:.1f}" for v in b) + "]"


def check_chart(name, c, unstyled):
    """The checks of one chart's own layout, in user units of its viewBox."""
    cid, (vw, vh) = c["id"], c["view"]
    texts = c["texts"]
    check(any(t["cls"] == "legend-entry" for t in texts), f"{name}: chart {cid} has no legend")
    for t in texts:
        check(inside(t["box"], vw, vh), f"{name}: chart {cid}: text {t['text']!r} ({t['cls']}) at "
                                        f"{fmt_box(t['box'])} is cut by the viewBox 0 0 {vw:.0f} {vh:.0f}")
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            a, b = texts[i], texts[j]
            check(not overlap(a["box"], b["box"]),
                  f"{name}: chart {cid}: texts overlap: {a['text']!r} ({a['cls']}) {fmt_box(a['box'])} and "
                  f"{b['text']!r} ({b['cls']}) {fmt_box(b['box'])}")
    for m in c["marks"]:
        check(inside(m["box"], vw, vh), f"{name}: chart {cid}: {m['cls']} at {fmt_box(m['box'])} is outside "
                                        f"the viewBox")
    # In a scatter (size against speed or error) no marker hides another:
    # formats that share a size ratio and a speed are set side by side.
    if cid.startswith(("pareto-", "error-front-")):
        points = [m for m in c["marks"] if m["cls"] == "point"]
        for i in range(len(points)):
            for j in range(i + 1, len(points)):
                check(not overlap(points[i]["box"], points[j]["box"]),
                      f"{name}: chart {cid}: markers overlap: {fmt_box(points[i]['box'])} and "
                      f"{fmt_box(points[j]['box'])}")
    for t, box in zip(texts, c["unstyled"] if unstyled else []):
        check(same_box(t["box"], box), f"{name}: chart {cid}: text {t['text']!r} moves without the page's CSS: "
                                       f"{fmt_box(t['box'])} -> {fmt_box(box)}")


def same_box(a, b):
    return all(abs(p - q) <= TOLERANCE for p, q in zip(a, b))


def check_mode(name, data, wide, printing, min_charts):
    page, charts = data["page"], data["charts"]
    check(len(charts) >= min_charts, f"{name}: {len(charts)} charts, expected at least {min_charts}")
    check(page["scroll_width"] <= page["client_width"],
          f"{name}: the page scrolls sideways ({page['scroll_width']} > {page['client_width']} px)")
    check(page["print"] == printing, f"{name}: print media is {page['print']}")
    # The page leads with the answer: the first chart is laid out above the
    # first table (the tables come after the charts).
    if charts and page["first_table_top"] is not None:
        top = min(c["page_top"] for c in charts)
        check(top < page["first_table_top"], f"{name}: the first chart's top ({top:.0f} px) is not above the "
                                              f"first table's ({page['first_table_top']:.0f} px)")
    for c in charts:
        cid, (left, _, right, _) = c["id"], c["rect"]
        vw = c["view"][0]
        check(left >= page["content_left"] - TOLERANCE and right <= page["content_right"] + TOLERANCE,
              f"{name}: chart {cid} spans x {left:.1f}..{right:.1f}, outside the page's content "
              f"{page['content_left']:.1f}..{page['content_right']:.1f}")
        if wide:
            check(right - left >= vw - TOLERANCE, f"{name}: chart {cid} is scaled down to {right - left:.1f} px "
                                                   f"(its width is {vw:.0f})")
        if printing:
            check(c["figure_break_inside"] == "avoid",
                  f"{name}: chart {cid}: figure break-inside is {c['figure_break_inside']!r}, not avoid")
        check_chart(name, c, wide)
    return len(charts)


def check_standalone(browser, probe, svg_dir, inline):
    """Each .svg file alone: laid out like the same chart in the page."""
    files = sorted(f for f in os.listdir(svg_dir) if f.endswith(".svg"))
    check(len(files) == len(inline), f"{len(files)} SVG files for {len(inline)} charts in the page")
    for f in files:
        browser.open("file://" + os.path.abspath(os.path.join(svg_dir, f)), 800, 600)
        charts = browser.evaluate(probe)["charts"]
        if not check(len(charts) == 1, f"{f}: {len(charts)} charts in the file"):
            continue
        c = charts[0]
        check_chart(f, c, True)
        page_chart = inline.get(c["id"])
        if not check(page_chart is not None, f"{f}: chart {c['id']} is not in the page"):
            continue
        check(len(c["texts"]) == len(page_chart["texts"]), f"{f}: {len(c['texts'])} texts, the page has "
                                                           f"{len(page_chart['texts'])}")
        for t, u in zip(c["texts"], page_chart["texts"]):
            check(t["text"] == u["text"] and same_box(t["box"], u["box"]),
                  f"{f}: text {t['text']!r} at {fmt_box(t['box'])}; in the page {u['text']!r} at {fmt_box(u['box'])}")
    return len(files)


FIRST_SCREEN = (1280, 800)
# Each paragraph, list item and heading of the page: its text (white space
# collapsed as rendered) and its box in the viewport, before any scrolling.
TEXT_BLOCKS = """[...document.querySelectorAll("p, li, h1, h2, h3")].map((e) => {
  const r = e.getBoundingClientRect();
  return {tag: e.tagName.toLowerCase(), cls: e.getAttribute("class") || "",
          text: e.textContent.replace(/\\s+/g, " ").trim(), box: [r.left, r.top, r.right, r.bottom]};
})"""


def check_first_screen(browser, url, texts, png):
    """Each of `texts` is the whole text of an element lying within the first screen."""
    width, height = FIRST_SCREEN
    browser.open(url, width, height)
    blocks = browser.evaluate(TEXT_BLOCKS)
    for want in texts:
        want = " ".join(want.split())
        found = [b for b in blocks if b["text"] == want]
        if not check(found, f"first screen: no element's text is {want!r}; the page's first texts: "
                            f"{[b['text'][:80] for b in blocks[:6]]}"):
            continue
        b = found[0]
        x0, y0, x1, y1 = b["box"]
        check(y0 >= -TOLERANCE and y1 <= height + TOLERANCE and x0 >= -TOLERANCE and x1 <= width + TOLERANCE,
              f"first screen: <{b['tag']} class={b['cls']!r}> {want[:60]!r}... spans y {y0:.0f}..{y1:.0f} px, "
              f"not within the {width} x {height} screen")
    if png:
        with open(png, "wb") as f:
            f.write(browser.screenshot())
    return len(texts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("--png")
    ap.add_argument("--svg-dir")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--min-charts", type=int, default=1)
    ap.add_argument("--first-screen", action="append", default=[])
    ap.add_argument("--first-screen-png")
    a = ap.parse_args()
    if not os.access(a.chromium, os.X_OK):
        print(f"SKIP: {a.chromium} not installed (apt-get install chromium to run this test)")
        return 77
    probe = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "layout_probe.js"),
                 encoding="utf-8").read()
    url = "file://" + os.path.abspath(a.html)
    modes = [("screen 1280 px", 1280, 900, "", True), ("screen 420 px", 420, 900, "", False),
             ("print 680 px", 680, 960, "print", False)]
    summary = []
    with cdp.Browser(a.chromium) as browser:
        inline = {}
        for name, width, height, media, wide in modes:
            browser.open(url, width, height, media)
            data = browser.evaluate(probe)
            n = check_mode(name, data, wide, media == "print", a.min_charts)
            summary.append(f"{name}: {n} charts")
            if wide:
                inline = {c["id"]: c for c in data["charts"]}
                if a.png:
                    with open(a.png, "wb") as f:
                        f.write(browser.screenshot_full_page())
        if a.svg_dir:
            summary.append(f"{check_standalone(browser, probe, a.svg_dir, inline)} standalone SVG files")
        if a.first_screen:
            n = check_first_screen(browser, url, a.first_screen, a.first_screen_png)
            summary.append(f"{n} text(s) on the first {FIRST_SCREEN[0]} x {FIRST_SCREEN[1]} screen")
    for f in failures[:200]:
        print("FAIL:", f)
    if len(failures) > 200:
        print(f"... and {len(failures) - 200} more")
    print(f"check_layout: {'; '.join(summary)}; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
