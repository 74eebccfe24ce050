"""Issue 16 in real Chromium: phone B saves, phone A taps Undo on its older table page: B's change is
not lost and A is told why. And a page on another site cannot make a phone's browser undo or edit."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_checks import check_phone_sizes
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_undo_on_an_older_page_keeps_the_other_phones_save_and_says_why(browser, browser_context_args, page,
                                                                       live_url, shots):
    page.clock.install()  # its timers run on a clock the test can stop (below)
    # phone A never learns of another phone's save by asking for the table's version (once a second): each
    # ask is answered "unchanged" in the browser itself. Stopping its clock alone leaves a race on a slow
    # machine: the clock's jump fires a due ask, which may reach the server after B's save, and A would
    # follow B to version 3 (its Undo then carries version 3, and there is no conflict to check).
    page.route("**/api/tables/*/version", lambda route: route.fulfill(status=304))
    page.goto(live_url + "/")
    page.select_option("#new-game", "two-robots")
    page.fill("#new-players", "2")
    page.click("text=Start table")  # a plain form POST: the browser sends Origin, same origin
    page.wait_for_url("**/t/*")
    page.fill("#name0", "Ann")
    page.click("#table-form button[type=submit]")
    expect(page.locator("#save-msg")).to_contain_text("Saved with table")
    expect(page.locator("#table-version")).to_have_text("2")

    other = browser.new_context(**browser_context_args)
    phone_b = other.new_page()
    b_errors: list[str] = []
    phone_b.on("pageerror", lambda e: b_errors.append(str(e)))
    # phone A's clock stops here (a phone put down, its page asleep): it stays on the version it shows
    page.clock.pause_at(datetime.now() + timedelta(seconds=1))
    phone_b.goto(page.url)
    phone_b.fill("#notes", "Bo has the Orb")
    phone_b.click("#table-form button[type=submit]")
    expect(phone_b.locator("#save-msg")).to_contain_text("Saved with table")
    expect(phone_b.locator("#table-version")).to_have_text("3")

    page.click("#undo-form button")  # phone A still shows version 2
    msg = page.locator("#undo-conflict-msg")
    expect(msg).to_be_visible()
    expect(msg).to_contain_text("Nothing was undone: another phone saved this table after the version you were "
                                "looking at (version 2)")
    expect(page.locator("#notes")).to_have_value("Bo has the Orb")  # B's change is kept, and shown
    expect(page.locator("#name0")).to_have_value("Ann")
    expect(page.locator("#table-version")).to_have_text("3")
    check_phone_sizes(page, shots, "table-undo-conflict")

    phone_b.reload()
    expect(phone_b.locator("#notes")).to_have_value("Bo has the Orb")
    # the answer to A's Undo is a 409 page, which Chromium logs; nothing else may be
    assert [e for e in page.js_errors if "409 (CONFLICT)" not in e] == [] and b_errors == []
    other.close()


@pytest.fixture
def other_site():
    """Another site on this machine, serving whatever page a test gives it (as http://localhost:<port>:
    another host than the app's 127.0.0.1, so another origin and another site, on the loopback address
    so that Chromium lets it reach the app at all)."""
    pages: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, b"")
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def serve(path: str, html: str) -> str:
        pages[path] = html.encode()
        return f"http://localhost:{server.server_port}{path}"

    yield serve
    server.shutdown()


def test_another_site_cannot_undo_or_edit_through_a_phones_browser(page, live_app, live_url, other_site):
    client = live_app.test_client()
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"table": {"notes": "kept"}}})
    undo = f"{live_url}/api/tables/{t['id']}/undo"
    evil_url = other_site("/evil", f"""<!doctype html><body>
      <form id="f" method="post" action="{live_url}/t/{t['id']}/edit">
        <input name="version" value="2"><input name="names.0" value="Mallory"><input name="round" value="1"></form>
      <script>
        var quiet = function () {{}};
        fetch("{undo}", {{method: "POST", mode: "no-cors"}}).catch(quiet)
          .then(function () {{ return fetch("{undo}", {{method: "POST", mode: "no-cors", body: "{{}}",
                                            headers: {{"Content-Type": "text/plain"}}}}).catch(quiet); }})
          .then(function () {{ document.getElementById("f").submit(); }});
      </script></body>""")
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.url, r.status)) if r.url.startswith(live_url) else None)
    with page.expect_response(f"{live_url}/t/{t['id']}/edit") as edit:
        page.goto(evil_url)
    assert edit.value.status == 403
    expect(page.locator("body")).to_contain_text("came from another site")
    assert answers[:2] == [(undo, 403), (undo, 403)], answers
    now = client.get(f"/api/tables/{t['id']}").get_json()
    assert now["version"] == 2 and now["state"] == {"table": {"notes": "kept"}}
