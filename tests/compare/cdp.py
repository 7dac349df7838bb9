"""A minimal Chrome DevTools Protocol client for the report tests: starts
headless Chromium with --remote-debugging-pipe (the browser reads commands
on its fd 3 and writes replies on fd 4, each message JSON ended by a NUL
byte), opens one page and sends commands to it. No network, no port, no
package beyond the standard library.

    with Browser("/usr/bin/chromium") as b:
        b.open("file:///tmp/report.html", width=1280, height=900, media="print")
        value = b.evaluate("document.title")
        png = b.screenshot_full_page()    # or b.screenshot(): the viewport only
"""
import base64
import json
import os
import subprocess
import tempfile


class Browser:
    def __init__(self, chromium, timeout=120):
        self._profile = tempfile.TemporaryDirectory(prefix="fb-cdp-")
        to_browser_r, self._to_browser_w = os.pipe()
        self._from_browser_r, from_browser_w = os.pipe()

        def child():
            # Copy first, so moving one pipe onto fd 3 or 4 cannot close the other.
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
             "--user-data-dir=" + self._profile.name, "about:blank"],
            pass_fds=(3, 4, to_browser_r, from_browser_w), preexec_fn=child,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._timeout = timeout
        self._buffer = b""
        self._next_id = 0
        self._events = []
        self._session = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self._send("Browser.close")
        except Exception:
            pass
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._to_browser_w, self._from_browser_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def _receive(self):
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser_r, 1 << 20)
            if not chunk:
                err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
                raise RuntimeError("chromium closed its DevTools pipe:\n" + err[-2000:])
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _send(self, method, params=None, session=None):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser_w, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self._events.append(reply)

    def _wait_event(self, name):
        while True:
            for i, e in enumerate(self._events):
                if e.get("method") == name and e.get("sessionId") == self._session:
                    return self._events.pop(i)
            self._events.append(self._receive())

    def command(self, method, params=None):
        """A command to the open page."""
        return self._send(method, params, self._session)

    def open(self, url, width, height, media=""):
        """Opens `url` in a new page of width x height CSS pixels, media "" (screen) or "print"."""
        target = self._send("Target.createTarget", {"url": "about:blank"})
        self._session = self._send("Target.attachToTarget",
                                   {"targetId": target["targetId"], "flatten": True})["sessionId"]
        self.command("Page.enable")
        self.command("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.command("Emulation.setEmulatedMedia", {"media": media})
        self.command("Page.navigate", {"url": url})
        self._wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of a JavaScript expression (JSON-able) in the open page."""
        r = self.command("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: " + json.dumps(r["exceptionDetails"])[:2000])
        return r["result"].get("value")

    def screenshot(self):
        """PNG bytes of the viewport as it is (the first screen before scrolling)."""
        return base64.b64decode(self.command("Page.captureScreenshot", {"format": "png"})["data"])

    def screenshot_full_page(self):
        """PNG bytes of the whole page, not only the viewport."""
        size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        r = self.command("Page.captureScreenshot",
                         {"format": "png", "captureBeyondViewport": True,
                          "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}})
        return base64.b64decode(r["data"])
