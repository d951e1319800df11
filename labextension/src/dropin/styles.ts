/**
 * The widget's stylesheet, applied inside its shadow root only, so it cannot reach the
 * host page, and the host page's selectors cannot reach in. What still crosses a shadow
 * boundary is inheritance (font, colour, line height…) and rules on the host element
 * itself; `:host { all: initial !important }` cuts both (an !important rule inside a
 * shadow tree beats an !important rule of the page on its host). No web fonts and no
 * url(): the widget makes no request but to the athena server.
 */
export const WIDGET_CSS = `
:host { all: initial !important; display: block !important; position: static !important; }
.root {
  all: initial;
  --accent: #2563eb; --accent-text: #ffffff;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --soft: #f6f8fa;
  --mark: #fff3b0; --error: #b42318; --unsupported: #ffe3e3; --shadow: 0 12px 40px rgba(0,0,0,.22);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); -webkit-font-smoothing: antialiased;
  position: fixed; bottom: 20px; right: 20px; z-index: 2147483000;
  display: flex; flex-direction: column; align-items: flex-end; gap: 12px;
}
.root[data-position="bottom-left"] { right: auto; left: 20px; align-items: flex-start; }
@media (prefers-color-scheme: dark) {
  .root[data-theme="auto"] {
    --accent: #4493f8; --bg: #161b22; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --soft: #21262d;
    --mark: #5a4a00; --error: #ff7b72; --unsupported: #4d2323; --shadow: 0 12px 40px rgba(0,0,0,.6);
  }
}
/* On a dark panel, text in the accent colour is lightened so a dark accent stays readable. */
@media (prefers-color-scheme: dark) {
  .root[data-theme="auto"] :is(a, .source, .marker) { color: color-mix(in srgb, var(--accent) 55%, white); }
}
.root[data-theme="dark"] :is(a, .source, .marker) { color: color-mix(in srgb, var(--accent) 55%, white); }
.root[data-theme="dark"] {
  --accent: #4493f8; --bg: #161b22; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --soft: #21262d;
  --mark: #5a4a00; --error: #ff7b72; --unsupported: #4d2323; --shadow: 0 12px 40px rgba(0,0,0,.6);
}
*, *::before, *::after { box-sizing: border-box; }
button, textarea { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
.launcher {
  order: 2; display: inline-flex; align-items: center; gap: 8px; min-height: 48px; padding: 0 18px;
  border: 0; border-radius: 24px; background: var(--accent); color: var(--accent-text);
  font-weight: 600; box-shadow: var(--shadow);
}
.launcher svg { width: 20px; height: 20px; fill: currentColor; }
.panel {
  order: 1; width: min(400px, calc(100vw - 24px)); height: min(600px, calc(100vh - 100px));
  display: flex; flex-direction: column; overflow: hidden; position: relative;
  background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 14px;
  box-shadow: var(--shadow);
}
.panel[hidden] { display: none; }
.panel-header {
  display: flex; align-items: center; gap: 8px; padding: 10px 12px 10px 16px;
  border-bottom: 1px solid var(--border); background: var(--soft);
}
.panel-title { flex: 1; margin: 0; font-size: 15px; font-weight: 600; }
.icon-button {
  border: 1px solid transparent; background: transparent; border-radius: 8px; padding: 4px 8px; color: var(--muted);
}
.icon-button:hover { border-color: var(--border); color: var(--fg); }
.messages { flex: 1; overflow-y: auto; padding: 12px 16px; display: flex; flex-direction: column; gap: 12px; }
.welcome { color: var(--muted); margin: 0; }
.starters { display: flex; flex-direction: column; gap: 6px; }
.starter {
  text-align: left; padding: 8px 12px; border: 1px solid var(--border); border-radius: 10px;
  background: var(--bg); color: var(--fg);
}
.starter:hover { border-color: var(--accent); }
.question {
  align-self: flex-end; max-width: 85%; padding: 8px 12px; border-radius: 12px 12px 2px 12px;
  background: var(--accent); color: var(--accent-text); white-space: pre-wrap; overflow-wrap: anywhere;
}
.answer { display: flex; flex-direction: column; gap: 6px; overflow-wrap: anywhere; }
.answer-header { font-size: 12px; color: var(--muted); }
.answer-mode { margin-left: 4px; }
.answer-body p { margin: 0 0 8px; }
.answer-body pre { background: var(--soft); padding: 8px; border-radius: 6px; overflow-x: auto; font-size: 12px; }
.answer-body code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.answer-body h1, .answer-body h2, .answer-body h3 { font-size: 15px; margin: 8px 0 4px; }
.answer.streaming .answer-body::after { content: "\\2026"; color: var(--muted); }
.marker {
  border: 0; background: none; padding: 0 1px; color: var(--accent); font-size: 12px; font-weight: 600;
  vertical-align: super; line-height: 1;
}
mark.athena-unsupported { background: var(--unsupported); color: inherit; text-decoration: underline wavy var(--error); }
.unsupported-list { font-size: 12px; color: var(--error); }
.unsupported-list ul { margin: 4px 0 0; padding-left: 18px; }
mark.athena-not-found { background: var(--unsupported); color: inherit; text-decoration: underline wavy var(--error); }
.not-found-list { font-size: 12px; color: var(--error); }
.not-found-list ul { margin: 4px 0 0; padding-left: 18px; }
.sources { margin: 0; padding: 8px 0 0; list-style: none; border-top: 1px solid var(--border); display: flex; flex-direction: column; gap: 6px; }
.sources[hidden] { display: none; }
.source {
  display: flex; gap: 6px; align-items: baseline; width: 100%; text-align: left; padding: 0; border: 0;
  background: none; color: var(--accent); text-decoration: none; font-size: 13px;
}
.source:hover .source-label { text-decoration: underline; }
.source-number { font-weight: 600; flex: none; }
.source-label { overflow-wrap: anywhere; }
.source-snippet {
  margin: 2px 0 0 22px; font-size: 12px; color: var(--muted); display: -webkit-box; -webkit-line-clamp: 2;
  -webkit-box-orient: vertical; overflow: hidden;
}
.stream-status { margin: 4px 0 0; font-size: 13px; color: var(--muted); }
.stream-status[hidden] { display: none; }
.stream-status { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.read-progress { flex: 1 1 60px; max-width: 140px; height: 6px; accent-color: var(--accent); }
.quotes { margin: 6px 0 0; padding: 0 0 0 8px; border-left: 3px solid var(--border); }
.quotes[hidden], .answer-body[hidden] { display: none; }
.quotes-lead { margin: 0 0 2px; font-size: 12px; color: var(--muted); font-weight: 600; }
.interrupted-note { font-size: 13px; margin: 4px 0 0; }
.answer-actions { display: flex; gap: 6px; }
.answer-actions[hidden] { display: none; }
.answer-copy { font-size: 12px; border: 1px solid var(--border); background: var(--bg); border-radius: 6px; padding: 2px 8px; color: var(--muted); }
.trace-off, .athena-trace { display: none; }
.error { color: var(--error); margin: 0; }
.muted { color: var(--muted); }
.composer { display: flex; gap: 8px; align-items: flex-end; padding: 10px 12px; border-top: 1px solid var(--border); }
.composer textarea {
  flex: 1; resize: none; min-height: 40px; max-height: 120px; padding: 9px 12px; border: 1px solid var(--border);
  border-radius: 10px; background: var(--bg); color: var(--fg); line-height: 1.4;
}
.composer textarea::placeholder { color: var(--muted); opacity: 1; }
.send {
  min-height: 40px; padding: 0 14px; border: 0; border-radius: 10px; background: var(--accent); color: var(--accent-text); font-weight: 600;
}
.send:disabled { opacity: .6; cursor: default; }
.counter { padding: 0 12px 8px; font-size: 12px; color: var(--muted); }
.counter[hidden] { display: none; }
.counter.over { color: var(--error); }
.viewer {
  position: absolute; inset: 0; display: flex; flex-direction: column; background: var(--bg); z-index: 1;
}
.viewer[hidden] { display: none; }
.viewer-header { display: flex; gap: 8px; align-items: center; padding: 10px 12px; border-bottom: 1px solid var(--border); background: var(--soft); }
.viewer-title { flex: 1; margin: 0; font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
.viewer-close { border: 1px solid var(--border); background: var(--bg); border-radius: 8px; padding: 3px 10px; }
.viewer-body { flex: 1; overflow: auto; padding: 8px 0; }
.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.line { display: flex; white-space: pre-wrap; overflow-wrap: anywhere; padding: 0 12px 0 0; }
.line.cited { background: var(--mark); }
.line-number { flex: none; width: 44px; padding-right: 10px; text-align: right; color: var(--muted); user-select: none; }
.line code { font: inherit; }
.notebook { padding: 0 12px; display: flex; flex-direction: column; gap: 10px; }
.cell { border: 1px solid var(--border); border-radius: 8px; overflow: hidden; }
.cell-header { font-size: 12px; color: var(--muted); background: var(--soft); padding: 2px 8px; }
.cell-body { padding: 4px 10px; }
.pdf-page { position: relative; margin: 0 12px; }
.pdf-image { display: block; width: 100%; height: auto; }
.pdf-region { position: absolute; background: rgba(255, 213, 0, 0.3); outline: 2px solid var(--accent); }
.viewer-body .muted, .viewer-body .error { padding: 0 12px; }
@media (max-width: 480px) {
  .root { bottom: 12px; right: 12px; }
  .root[data-position="bottom-left"] { left: 12px; }
  .panel { width: calc(100vw - 24px); height: calc(100vh - 90px); }
}
`;
