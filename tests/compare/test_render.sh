#!/usr/bin/env bash
# Renders a report in headless Chromium (Debian's /usr/bin/chromium) to a PNG
# and checks the picture is not trivial (size, dimensions, many colours).
# `scripts/setup-debian.sh --tests` (the README's test command and CI)
# installs it; where it is absent this test exits 77, which meson reports as
# SKIP (never as a pass). The XML-parser checks of the report
# (check_report.py) run everywhere.
# Set FB_RENDER_PNG to keep the screenshot at that path.
set -euo pipefail
: "${FB:?}"
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIP: $chromium not installed (apt-get install chromium to run this test)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fb-render.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/study.yaml" <<YAML
name: render
defaults: {repeat: 3, warmup: 0}
datasets: [{count: [1e4, 1e5]}]
formats: [raw, memory, {plugin: zlib, options: {level: [1, 6]}}]
baseline: raw
YAML
"$FB" run "$work/study.yaml" --no-console --json "$work/r.json" --directory "$work"
"$FB" report "$work/r.json" -o "$work/report.html"
png=${FB_RENDER_PNG:-$work/report.png}
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,2400 \
  --screenshot="$png" "file://$work/report.html" >"$work/chromium.log" 2>&1 \
  || { cat "$work/chromium.log"; echo "FAIL: chromium failed"; exit 1; }
python3 - "$png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
distinct = len(set(raw[i:i + 3] for i in range(0, len(raw), 97)))
print(f"render: {w}x{h} PNG, {len(data)} bytes, ~{distinct} distinct sampled colours")
assert w >= 1000 and h >= 1000, "PNG too small"
assert len(data) > 20000, "PNG suspiciously small: blank page?"
assert distinct > 50, "too few colours: blank or unstyled page?"
PY
echo "render: ok"
