"""What browser tests do with the sidebar chat, shared by the test modules."""

from __future__ import annotations

ANSWER = '[data-testid="athena-answer"]'
ANSWER_DONE = '[data-testid="athena-answer"]:not(.athena-streaming)'


def ask(page, question: str, kind: str = "", prefix: str = "") -> object:
    """Type a question (with filters), press Enter, wait for the finished answer (the new
    one: a restored conversation may already show answers)."""
    page.locator(".athena-filter-kind").select_option(kind)
    page.locator(".athena-filter-prefix").fill(prefix)
    before = page.locator(ANSWER).count()  # streaming ones too: the new answer is the next one
    box = page.locator('[data-testid="athena-input"]')
    box.fill(question)
    box.press("Enter")
    answer = page.locator(ANSWER).nth(before)
    answer.wait_for(timeout=60_000)
    page.wait_for_function("(el) => !el.classList.contains('athena-streaming')", arg=answer.element_handle(),
                           timeout=60_000)
    return answer


# The WCAG contrast ratio of an element's text as rendered: its colour (alpha blended) on
# the backgrounds behind it, composed up to the first opaque one. Chromium reports
# color-mix() results as `color(srgb r g b / a)` with 0–1 channels.
CONTRAST_JS = """(el) => {
  const parse = s => {
    const n = s.match(/[\\d.]+/g).map(Number);
    const k = s.startsWith('color(') ? 255 : 1;
    return {r: n[0] * k, g: n[1] * k, b: n[2] * k, a: n.length > 3 ? n[3] : 1};
  };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
                                 b: top.b * top.a + under.b * (1 - top.a), a: 1});
  const layers = [];
  for (let node = el; node; node = node.parentElement) {
    const c = parse(getComputedStyle(node).backgroundColor);
    if (c.a > 0) layers.push(c);
    if (c.a >= 1) break;
  }
  const bg = layers.reverse().reduce((under, top) => over(top, under), {r: 255, g: 255, b: 255, a: 1});
  const fg = over(parse(getComputedStyle(el).color), bg);
  const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                     return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def set_theme(page, theme: str, light: bool) -> None:
    """Switch Lab's theme ("JupyterLab Light"/"JupyterLab Dark") and wait until it applies
    and Lab's splash screen is gone. A switch while the last one's splash fades (200 ms)
    makes Lab remove that splash twice, a page error of Lab's own ("removeChild")."""
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}}); }}")
    wait_for_theme(page, light)
    page.wait_for_function("!document.getElementById('jupyterlab-splash')")


def wait_for_theme(page, light: bool) -> None:
    """Wait until Lab says the theme is light (or dark) and its stylesheet is in force: the
    page's background colour is the theme's, not the old one's. A screenshot taken then
    shows the theme, however slowly the machine loaded its CSS."""
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(light).lower()}'")
    page.wait_for_function("""(light) => {
      const probe = document.createElement('div');
      probe.style.color = 'var(--jp-layout-color0)';
      document.body.append(probe);
      const [r, g, b] = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
      probe.remove();
      return ((r + g + b) / 3 > 128) === light;
    }""", arg=light)


def drawn(page) -> None:
    """Return once the browser has drawn the frame after now: what a click or a layout
    change did synchronously, and what Lab queued for the next frame, is on screen."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def snippet_shown(page, scope: str = ".athena-chat") -> None:
    """Wait until the hovered citation's preview is on screen in ``scope``, its text
    rendered and the preview placed again at its rendered height (sourceList.ts places it
    once when shown and once more after the Markdown is drawn)."""
    page.wait_for_function("""(scope) => [...document.querySelectorAll(scope + ' [data-testid="athena-snippet"]')]
      .some(p => !p.hidden && p.isConnected && p.querySelector('.athena-snippet-text')?.childElementCount > 0)""",
                           arg=scope)
    drawn(page)
