/**
 * The widget's settings, read from its own <script> tag's data- attributes. Pure (no DOM
 * beyond the attribute map), so it is unit-tested under node. Every value comes from the
 * embedding page, which is trusted to configure its own widget but not to inject markup:
 * text is only ever set as text, the accent only if it parses as a colour.
 */

export type Position = 'bottom-right' | 'bottom-left';
export type Theme = 'auto' | 'light' | 'dark';

export interface IDropinConfig {
  /** Base URL of the athena server, ending in '/': requests go to `${base}athena/...`. */
  base: string;
  title: string;
  placeholder: string;
  position: Position;
  theme: Theme;
  /** A CSS colour for the button, links and focus rings, or '' for the default. */
  accent: string;
  questions: string[];
}

const MAX_QUESTIONS = 6;

/**
 * `data-questions` as a JSON array of strings, or '|'-separated text (easier to write in
 * HTML by hand). Blank entries are dropped; at most six are shown.
 */
export function parseQuestions(raw: string | undefined): string[] {
  const text = (raw ?? '').trim();
  if (!text) {
    return [];
  }
  let items: unknown = null;
  if (text.startsWith('[')) {
    try {
      items = JSON.parse(text);
    } catch {
      items = null;
    }
  }
  const list = Array.isArray(items) ? items.filter((q): q is string => typeof q === 'string') : text.split('|');
  return list.map(q => q.trim()).filter(Boolean).slice(0, MAX_QUESTIONS);
}

/**
 * The server's base URL: `data-athena-url`, else the folder the script was loaded from
 * (`https://host/sub/athena/widget.js` → `https://host/sub/`), so a proxy may mount
 * athena under a sub-path.
 */
export function serverBase(athenaUrl: string | undefined, scriptSrc: string, pageUrl: string): string {
  const given = (athenaUrl ?? '').trim();
  const url = given ? new URL(given, pageUrl) : new URL(scriptSrc.replace(/athena\/widget\.js(?:[?#].*)?$/, ''), pageUrl);
  url.search = '';
  url.hash = '';
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

export function readConfig(
  data: Record<string, string | undefined>,
  scriptSrc: string,
  pageUrl: string,
  isColour: (value: string) => boolean
): IDropinConfig {
  const accent = (data.accent ?? '').trim();
  const theme = data.theme === 'light' || data.theme === 'dark' ? data.theme : 'auto';
  return {
    base: serverBase(data.athenaUrl, scriptSrc, pageUrl),
    title: (data.title ?? '').trim() || 'Ask the docs',
    placeholder: (data.placeholder ?? '').trim() || 'Ask a question\u2026',
    position: data.position === 'bottom-left' ? 'bottom-left' : 'bottom-right',
    theme,
    accent: accent && isColour(accent) ? accent : '',
    questions: parseQuestions(data.questions)
  };
}
