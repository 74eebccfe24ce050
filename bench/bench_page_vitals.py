"""Benchmark: layout shift (CLS) and main-thread blocking (TBT) of the Robotariat board page, against the
home page and a rules page, as a phone loads them (issue 25 item 3: Lighthouse mobile reported a layout
shift of 0.14 and 260 ms of blocking on the board page).

Run from the project root:  .venv/bin/python bench/bench_page_vitals.py [runs]
Lighthouse is not used (not installed here): Debian's Chromium through Playwright, 390x844, the CPU
slowed 4 times through the DevTools protocol (Emulation.setCPUThrottlingRate, as Lighthouse's mobile
preset does; no network throttling: the server is on localhost). In the page, PerformanceObservers
(buffered) collect
  - CLS: the sum of the 'layout-shift' entries' values without recent input (Lighthouse takes the
    worst 5 s session window; with one load both agree unless shifts are spread over more than 5 s),
  - TBT: the sum over 'longtask' entries of (duration - 50 ms),
from the navigation until the page has settled: for the board page, until the forecast it fetches after
load shows its percentage and then 2 s more (its refetches while the estimate narrows included); other
pages 2 s after load. The board page is loaded twice: from its top, and opened at its forecast
(#rb-game: a player who scrolled there, or follows a link to it; what fills in is then in view). Then "board page, live refresh": with the page open, another phone saves a change
to the table, and the same two figures are taken over the swap that follows (from the change to 2 s after
the page shows it).

TABLEBOT_ROOT measures another checkout's code (the "before" of a change). Prints the median and the
worst of `runs` loads (default 5) per page.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, os.environ.get("TABLEBOT_ROOT") or str(Path(__file__).resolve().parent.parent))

CHROMIUM = os.environ.get("TABLEBOT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
SETTLE_MS = 2000

# Installed before any of the page's scripts run; buffered observers also see what came before them.
OBSERVE_JS = """
(() => {
  const v = window.__vitals = {cls: 0, tbt: 0, shifts: [], tasks: []};
  v.reset = () => { v.cls = 0; v.tbt = 0; v.shifts = []; v.tasks = []; };
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      v.cls += e.value;
      v.shifts.push({value: e.value, at: Math.round(e.startTime),
        nodes: (e.sources || []).map(s => s.node && s.node.nodeType === 1
          ? (s.node.id ? '#' + s.node.id : s.node.nodeName.toLowerCase() + '.' + s.node.className) : '?')});
    }
  }).observe({type: 'layout-shift', buffered: true});
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      v.tbt += Math.max(0, e.duration - 50);
      v.tasks.push({duration: Math.round(e.duration), at: Math.round(e.startTime)});
    }
  }).observe({type: 'longtask', buffered: true});
})();
"""

FORECAST_SHOWN_JS = """() => {
  const n = document.querySelector('#game-bars .num');
  return !!n && /\\d\\s*%/.test(n.textContent);
}"""


def mid_game_state() -> dict:
    """Round 3 of a three-player game on the example board: the entry track's first three NPCs on the
    board, posters out, the second player to play."""
    return {"table": {"names": ["Ann", "Bo", "Cy"]}, "robotariat": {"state": {
        "players": [{"at": "sy", "character": "a1_5"}, {"at": "up1", "character": "arcitech"},
                    {"at": "p2", "character": "uberbot"}],
        "oppressors": ["ro", "sb2"], "civilians": ["p3"], "posters": {"p1": 2, "p2": 1, "p3": 3},
        "junk": 1, "funds": 17, "reputation": 4, "office": 3, "entry": "mm", "active": 1, "round": 3}}}


def serve():
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    from assistant import create_app

    tmp = tempfile.mkdtemp(prefix="bench-vitals-")
    os.environ.setdefault("TABLEBOT_INSTANCE", tmp)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp}/vitals.sqlite3", "SECRET_KEY": "bench",
                      "TABLE_CREATE_LIMIT": 10_000})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, f"http://127.0.0.1:{server.server_port}", server


def new_table(client) -> tuple[str, int]:
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    t = client.put(f"/api/tables/{t['id']}", json={"version": t["version"], "state": mid_game_state()}).get_json()
    return t["id"], t["version"]


def measure(browser, url: str, until_forecast: bool, change=None) -> dict:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              service_workers="block")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.add_init_script(OBSERVE_JS)
    page.goto(url, wait_until="load")
    if until_forecast:
        page.wait_for_function(FORECAST_SHOWN_JS, timeout=30_000)
    page.wait_for_timeout(SETTLE_MS)
    out = {"load": page.evaluate("({cls: __vitals.cls, tbt: __vitals.tbt, shifts: __vitals.shifts, tasks: __vitals.tasks})")}
    if change is not None:
        page.evaluate("__vitals.reset()")
        before = page.evaluate("document.body.getAttribute('data-table-version')")
        change()
        page.wait_for_function("v => document.body.getAttribute('data-table-version') !== v", arg=before,
                               timeout=15_000)
        page.wait_for_timeout(SETTLE_MS)
        out["refresh"] = page.evaluate("({cls: __vitals.cls, tbt: __vitals.tbt, shifts: __vitals.shifts, tasks: __vitals.tasks})")
    ctx.close()
    return out


def line(name: str, samples: list[dict]) -> str:
    cls = [s["cls"] for s in samples]
    tbt = [s["tbt"] for s in samples]
    return (f"{name:<34} CLS median {statistics.median(cls):.3f}  worst {max(cls):.3f}   "
            f"TBT median {statistics.median(tbt):5.0f} ms  worst {max(tbt):5.0f} ms")


def main() -> None:
    from playwright.sync_api import sync_playwright

    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    runs = int(args[0]) if args else 5
    verbose = "-v" in sys.argv
    app, base, server = serve()
    client = app.test_client()
    results: dict[str, list[dict]] = {k: [] for k in ("home", "rules page", "board page (load)",
                                                      "board page (live refresh)", "board page at #rb-game",
                                                      "at #rb-game, live refresh")}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        measure(browser, f"{base}/", False)  # the server's templates compiled once, as a running one has them
        for _ in range(runs):
            results["home"].append(measure(browser, f"{base}/", False)["load"])
            results["rules page"].append(measure(browser, f"{base}/rules/rb-npc-turn", False)["load"])
            tid, version = new_table(client)
            box = {"version": version}

            def other_phone_moves(tid=tid, box=box):
                state = mid_game_state()
                state["robotariat"]["state"]["funds"] += 2
                state["robotariat"]["state"]["posters"]["p1"] += 1
                r = client.put(f"/api/tables/{tid}", json={"version": box["version"], "state": state})
                box["version"] = r.get_json()["version"]

            m = measure(browser, f"{base}/robotariat/?table={tid}", True, other_phone_moves)
            results["board page (load)"].append(m["load"])
            results["board page (live refresh)"].append(m["refresh"])
            tid, version = new_table(client)
            box["version"] = version
            m = measure(browser, f"{base}/robotariat/?table={tid}#rb-game", True,
                        lambda tid=tid, box=box: other_phone_moves(tid, box))
            results["board page at #rb-game"].append(m["load"])
            results["at #rb-game, live refresh"].append(m["refresh"])
        browser.close()
    server.shutdown()
    print(f"Chromium {PHONE['width']}x{PHONE['height']}, CPU slowed {CPU_SLOWDOWN}x, {runs} loads per page")
    for name, samples in results.items():
        print(line(name, samples))
        if verbose:
            for s in samples:
                print("   shifts", [(round(x["value"], 4), x["at"], x["nodes"]) for x in s["shifts"]])
                print("   long tasks", [(x["duration"], x["at"]) for x in s["tasks"]])


if __name__ == "__main__":
    main()
