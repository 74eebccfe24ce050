"""Checks every page test runs in Chromium: nothing wider than the screen, tap targets >= 44 px."""
from __future__ import annotations

TAP_MIN = 44

_TAP_JS = """(min) => {
  const bad = [];
  const sel = 'a, button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || st.visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (el.matches('.skip, .sr-only')) continue;
    // links inside running text are exempt (WCAG 2.5.8 inline exception)
    if (el.tagName === 'A' && st.display === 'inline' && el.closest('p, li, td') && !el.closest('.rule-links')) continue;
    if (el.type === 'checkbox' || el.type === 'radio') {
      const lab = el.closest('label') || (el.id && document.querySelector('label[for="' + el.id + '"]'));
      const lr = lab ? lab.getBoundingClientRect() : r;
      if (Math.max(lr.height, r.height) >= min) continue;
    }
    if (r.height < min - 0.5 || r.width < min - 0.5) bad.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || el.name || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return bad;
}"""


def tap_target_problems(page, minimum: int = TAP_MIN) -> list[str]:
    return page.evaluate(_TAP_JS, minimum)


def overflows(page) -> bool:
    """True when the page scrolls sideways (something is wider than the viewport)."""
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


def assert_phone_ready(page) -> None:
    assert not overflows(page), "the page is wider than the screen"
    problems = tap_target_problems(page)
    assert not problems, "tap targets under 44 px: " + "; ".join(problems[:8])


def check_phone_sizes(page, shots, name: str, full_page: bool = True) -> None:
    """The page as a phone shows it, checked and photographed: 390 px in the light theme, then 320 px
    in the dark one (the page is left at 320 px, dark)."""
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}-390"), full_page=full_page)
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}-320-dark"), full_page=full_page)


def phone(browser, context_args: dict):
    """Another phone at the table: its own browser context; `page.navigations` lists its page loads,
    so a test can tell that a page followed the table without a reload."""
    ctx = browser.new_context(**context_args)
    page = ctx.new_page()
    page.navigations = []
    page.on("framenavigated", lambda f: page.navigations.append(f.url) if f == page.main_frame else None)
    return ctx, page


def expect_shown(page, shows, timeout: int = 2000) -> None:
    """Wait until the page shows each (selector, kind, want): kind "value" (a field's value), "count"
    (how many match), "checked", "exact" (the whole text) or anything else (the text contains it)."""
    from playwright.sync_api import expect

    for selector, kind, want in shows:
        loc = page.locator(selector)
        if kind == "value":
            expect(loc).to_have_value(want, timeout=timeout)
        elif kind == "count":
            expect(loc).to_have_count(want, timeout=timeout)
        elif kind == "checked":
            expect(loc).to_be_checked(timeout=timeout)
        elif kind == "exact":
            expect(loc).to_have_text(want, timeout=timeout)
        else:
            expect(loc).to_contain_text(want, timeout=timeout)


def take_seat(page, url: str, name: str, seat: int) -> None:
    """Open `url` on a phone new to the table and answer "Who are you?": the name, then seat `seat`."""
    from playwright.sync_api import expect

    page.goto(url)
    page.fill("#seat-name", name)
    with page.expect_navigation():
        page.click(f"#seat-pick button[name=seat][value='{seat}']")
    expect(page.locator(".seat-me")).to_contain_text(name)
