/**
 * The notebook answer widget's stylesheet (added once per document by widget.ts). Every
 * rule starts with `.athena-widget`, the class of the view's root, so nothing here can
 * restyle the sidebar (`.athena-chat`, which shares class names) or the notebook around
 * it; labextension/test/widgetStyles.test.ts checks that. Colours are Lab's `--jp-*`
 * variables (both themes), with plain fallbacks for front ends that define none (VS Code,
 * classic Notebook). Tints are mixed into the page background rather than taken from
 * Lab's pale `--jp-warn-color3`, which stays pale in the dark theme under white text.
 */
export const WIDGET_CSS = `
.athena-widget {
  font-family: var(--jp-content-font-family, system-ui, sans-serif);
  font-size: var(--jp-content-font-size1, 14px);
  line-height: 1.5;
  color: var(--jp-content-font-color1, #1a1a1a);
  border-left: 3px solid var(--jp-brand-color1, #2f6fb3);
  padding: 4px 12px;
  max-width: 960px;
  overflow-wrap: anywhere;
}
.athena-widget [hidden] { display: none !important; }
.athena-widget button { font: inherit; margin: 0; }
.athena-widget button:focus-visible, .athena-widget summary:focus-visible {
  outline: 2px solid var(--jp-brand-color1, #2f6fb3); outline-offset: 1px;
}
.athena-widget .athena-question {
  font-weight: 600; margin: 2px 0 6px; white-space: pre-wrap;
  color: var(--jp-content-font-color0, #000);
}
.athena-widget .athena-question::before {
  content: "Q "; font-weight: 400; color: var(--jp-content-font-color2, #555);
}
.athena-widget .athena-quotes { margin: 6px 0 0; padding: 0 0 0 10px; border-left: 3px solid var(--jp-border-color1, #ccc); }
.athena-widget .athena-quotes[hidden], .athena-widget .athena-answer[hidden] { display: none; }
.athena-widget .athena-quotes-lead { margin: 0 0 2px; font-size: 0.9em; opacity: 0.75; font-weight: 600; }
.athena-widget .athena-answer > :first-child { margin-top: 0; }
.athena-widget .athena-answer p, .athena-widget .athena-answer ul, .athena-widget .athena-answer ol,
.athena-widget .athena-answer blockquote, .athena-widget .athena-answer table { margin: 6px 0; }
.athena-widget .athena-answer ul, .athena-widget .athena-answer ol { padding-left: 1.6em; }
.athena-widget .athena-answer h1, .athena-widget .athena-answer h2, .athena-widget .athena-answer h3,
.athena-widget .athena-answer h4 { font-size: 1.05em; margin: 10px 0 4px; }
.athena-widget .athena-answer strong { font-weight: 700; }
.athena-widget .athena-answer em { font-style: italic; }
.athena-widget .athena-answer a[href] { color: var(--jp-content-link-color, #1d4f86); }
.athena-widget .athena-answer blockquote {
  border-left: 3px solid var(--jp-border-color1, #ccc); padding-left: 10px; color: var(--jp-content-font-color2, #555);
}
.athena-widget .athena-answer table { border-collapse: collapse; }
.athena-widget .athena-answer th, .athena-widget .athena-answer td {
  border: 1px solid var(--jp-border-color2, #ddd); padding: 2px 6px;
}
.athena-widget .athena-answer code, .athena-widget .athena-snippet, .athena-widget .athena-preview-lines {
  font-family: var(--jp-code-font-family, ui-monospace, monospace);
  font-size: var(--jp-code-font-size, 12px);
}
.athena-widget .athena-answer :not(pre) > code {
  background: var(--jp-layout-color2, #f0f0f0); padding: 0 3px; border-radius: 3px;
}
.athena-widget .athena-answer pre, .athena-widget .athena-snippet {
  background: var(--jp-layout-color2, #f3f3f3);
  color: var(--jp-content-font-color1, #1a1a1a);
  padding: 6px 8px; margin: 6px 0; border-radius: 3px;
  overflow-x: auto; white-space: pre-wrap;
}
.athena-widget .athena-answer a.athena-remote-image::before { content: "image \\2197  "; }
.athena-widget mark.athena-unsupported {
  background: color-mix(in srgb, var(--jp-warn-color1, #c98a00) 22%, transparent);
  color: inherit; text-decoration: underline wavy var(--jp-warn-color1, #c98a00);
}
.athena-widget .athena-marker, .athena-widget .athena-chip {
  cursor: pointer;
  border: 1px solid var(--jp-brand-color2, #8fb5e0);
  border-radius: 10px;
  background: var(--jp-layout-color1, #fff);
  /* Lab's link colour on its layout colour reads at 4.5:1 or more in light and dark. */
  color: var(--jp-content-link-color, #1d4f86);
}
.athena-widget .athena-marker { font-size: 0.75em; line-height: 1.2; padding: 0 5px; vertical-align: super; }
.athena-widget .athena-chip { font-size: 0.85em; padding: 1px 8px; text-align: left; }
.athena-widget .athena-marker:hover, .athena-widget .athena-chip:hover {
  text-decoration: underline; border-color: currentColor;
}
.athena-widget .athena-streaming { color: var(--jp-content-font-color2, #555); font-style: italic; }
.athena-widget .athena-error { color: var(--jp-error-color1, #b00020); margin: 6px 0; }
.athena-widget .athena-unsupported-list {
  background: color-mix(in srgb, var(--jp-warn-color1, #c98a00) 14%, transparent);
  border: 1px solid var(--jp-warn-color1, #c98a00);
  padding: 4px 8px; margin: 6px 0;
}
.athena-widget .athena-unsupported-list strong { font-weight: 600; }
.athena-widget .athena-unsupported-list ul { margin: 4px 0 0; padding-left: 18px; }
.athena-widget mark.athena-not-found {
  background: color-mix(in srgb, var(--jp-error-color1, #b00020) 14%, transparent);
  color: inherit; text-decoration: underline wavy var(--jp-error-color1, #b00020);
}
.athena-widget .athena-not-found-list {
  border: 1px solid var(--jp-error-color1, #b00020); padding: 4px 8px; margin: 6px 0;
}
.athena-widget .athena-not-found-list ul { margin: 4px 0 0; padding-left: 18px; }
.athena-widget .athena-sources { padding-left: 0; list-style: none; margin: 8px 0; }
.athena-widget .athena-source { margin: 3px 0; }
.athena-widget .athena-snippet-box { display: inline-block; margin-left: 8px; vertical-align: top; max-width: 100%; }
.athena-widget .athena-snippet-box summary {
  cursor: pointer; font-size: 0.8em; color: var(--jp-content-font-color2, #555);
}
.athena-widget .athena-actions { margin: 4px 0; }
.athena-widget .athena-copy {
  cursor: pointer; font-size: 0.85em; padding: 1px 10px; border-radius: 3px;
  border: 1px solid var(--jp-border-color1, #bbb);
  background: var(--jp-layout-color1, #fff);
  color: var(--jp-ui-font-color1, #1a1a1a);
}
.athena-widget .athena-copy:hover { border-color: currentColor; }
.athena-widget .athena-footer {
  display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; font-size: 0.8em;
  color: var(--jp-content-font-color2, #555);
}
.athena-widget .athena-mode { border: 1px solid currentColor; border-radius: 3px; padding: 0 4px; }
.athena-widget .athena-notice { font-style: italic; }
.athena-widget .athena-trace summary { cursor: pointer; }
.athena-widget .athena-trace ol { margin: 4px 0; padding-left: 1.6em; }
.athena-widget .athena-preview:empty { display: none; }
.athena-widget .athena-preview {
  border: 1px solid var(--jp-border-color1, #ccc); margin-top: 6px; max-height: 420px; overflow: auto;
}
.athena-widget .athena-preview-head {
  display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 2px 8px;
  background: var(--jp-layout-color2, #f3f3f3); font-weight: 600;
}
.athena-widget .athena-preview-close {
  border: none; background: none; cursor: pointer; font-size: 1.1em; color: inherit;
}
.athena-widget .athena-line { display: flex; white-space: pre-wrap; }
.athena-widget .athena-cited { background: color-mix(in srgb, var(--jp-warn-color1, #c98a00) 22%, transparent); }
.athena-widget .athena-lineno {
  flex: none; min-width: 3.5em; padding-right: 8px; text-align: right; user-select: none;
  color: var(--jp-content-font-color2, #555);
}
.athena-widget .athena-page { max-width: 100%; display: block; }
`;
