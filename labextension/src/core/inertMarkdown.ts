/**
 * Markdown from a model or a document, made safe to hand to a renderer the sidebar does
 * not control: a notebook's Markdown cell ("Insert in notebook") or the clipboard. Lab
 * renders notebook Markdown with its default sanitizer, which keeps remote images and
 * command-linker buttons; so raw HTML here becomes visible text and images become links
 * ("image: alt"). Fenced code and code spans stay exactly as written. Pure string work,
 * no DOM: unit-tested under node.
 *
 * Indented lines are treated as prose (a real parser would be needed to tell indented
 * code from list continuations): at worst a `<` in indented code shows as `&lt;`.
 */

/** A fence opener: a backtick fence's info string may hold no backtick (else it is text). */
const FENCE_OPEN = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;
/**
 * A code span: a whole backtick run, then the same run again. An escaped backtick opens
 * nothing, so a run after a backslash is not taken as code (its text is made inert).
 */
const CODE_SPAN = /(?<![`\\])(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g;
/** `<` that would open a tag, a comment, a declaration or a processing instruction. */
const TAG_OPEN = /<(?=[A-Za-z/!?])/g;
/** CommonMark autolinks are links only (no fetch, no attributes): keep them. */
const AUTOLINK = /^<(?:https?|mailto):[^\s<>]*>/i;
/** `![` not escaped: after an even number of backslashes (each pair is one literal `\`). */
const IMAGE = /(^|[^\\])((?:\\\\)*)!\[/g;

function inertProse(prose: string): string {
  let out = '';
  let cursor = 0;
  for (const match of prose.matchAll(TAG_OPEN)) {
    const at = match.index ?? 0;
    out += prose.slice(cursor, at);
    out += AUTOLINK.test(prose.slice(at)) ? '<' : '&lt;';
    cursor = at + 1;
  }
  out += prose.slice(cursor);
  return out.replace(IMAGE, '$1$2[image: ');
}

/** One line outside fenced code: prose made inert, code spans left alone. */
function inertLine(line: string): string {
  let out = '';
  let cursor = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    const at = match.index ?? 0;
    out += inertProse(line.slice(cursor, at)) + match[0];
    cursor = at + match[0].length;
  }
  return out + inertProse(line.slice(cursor));
}

/** `text` with raw HTML shown as text and images turned into links. */
export function inertMarkdown(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map(line => {
      if (fence !== null) {
        const closer = FENCE_CLOSE.exec(line);
        if (closer && closer[1][0] === fence[0] && closer[1].length >= fence.length) {
          fence = null;
        }
        return line;
      }
      const opener = FENCE_OPEN.exec(line);
      if (opener) {
        fence = opener[1] ?? opener[2];
        return line;
      }
      return inertLine(line);
    })
    .join('\n');
}
