/**
 * Markdown from a model or a document, made safe to hand to a renderer the sidebar does
 * not control: a notebook's Markdown cell ("Insert in notebook") or the clipboard. Lab
 * renders notebook Markdown with its default sanitizer, which keeps remote images and
 * command-linker buttons; so raw HTML here becomes visible text and images become links
 * ("image: alt"). Pure string work, no DOM: unit-tested under node.
 *
 * The Markdown is parsed by `marked` — the CommonMark/GFM parser Lab itself renders
 * notebook Markdown with, and the one the sidebar already renders answers with — and
 * written out again from its tokens (issue 31): what the parser calls code is written as
 * code, with a fence longer than any run of backticks inside it; everything else is text,
 * escaped so that it cannot become a tag, an image, a link or a block of another kind. The
 * old line-by-line scan let a code span that opened on one line and closed on the next
 * hide a later `<img>` from it. Because the output is rebuilt, not patched, what it means
 * does not hang on the input's corner cases. (markdown-it was tried first: it doubled the
 * drop-in widget a docs site's readers download, 39 → 81 KB gzipped; docs/dependencies.md.)
 *
 * Text that came from a document and is not Markdown — a heading, a path, a PDF's
 * /Title and /Author — goes through `inertText`, the same escaping as the answer's text.
 */
import { marked, Token, Tokens } from 'marked';

/**
 * `<` that would open a tag, a comment, a declaration or a processing instruction — or may,
 * with what the next token writes after it.
 */
const TAG_OPEN = /<(?=[A-Za-z/!?]|$)/g;
/** An entity or a numeric character reference, which a renderer would decode. */
const ENTITY = /&(?=#?[A-Za-z0-9]+;)/g;
/** What starts a block at the beginning of a line, and the character to escape in it. */
const LINE_START = /^(\s*)(#|>|[-+*](?=\s|$)|=+\s*$|-+\s*$|\d{1,9}(?=[.)](?:\s|$)))/;

interface IEscape {
  /** The text begins a line: then no heading, list, quote or rule may start either. */
  lineStart?: boolean;
  /** In a table cell: no `|` either. */
  inTable?: boolean;
  /** Every bracket, not only those that could close a link (a link's own text). */
  allBrackets?: boolean;
  /**
   * The text is Markdown source a parser read (a `marked` text token): its entities are
   * meant as entities and stay so. Plain text has its `&` escaped where it would start one.
   */
  source?: boolean;
}

/**
 * `text` escaped so a Markdown renderer shows it as written: no tag, no image, no link, no
 * emphasis, no code span; see `IEscape` for the rest.
 */
function escapeText(text: string, how: IEscape = {}): string {
  let out = text
    .replace(/\\/g, '\\\\')
    .replace(/[`*~]/g, '\\$&')
    // An underscore inside a word opens no emphasis; one at a word's edge could.
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    // "!" then "[" is an image, also when the "[" is the next token's (a link's) own.
    .replace(/!(?=\[|$)/g, '\\!')
    // "[" and "]" make a link only with a "(" destination, a "[" label or a definition's
    // ":" after the "]": "[1]" stays as readable as it was.
    .replace(how.allBrackets ? /\[/g : /\[(?=[^\]]*$)/g, '\\[')
    .replace(how.allBrackets ? /\]/g : /\](?=[([:]|$)/g, '\\]');
  if (!how.source) {
    out = out.replace(ENTITY, '&amp;');
  }
  out = out.replace(TAG_OPEN, '&lt;');
  if (how.inTable) {
    out = out.replace(/\|/g, '\\|');
  }
  // Each line of it: a paragraph's later lines lose their indent (it means nothing there).
  return out
    .split('\n')
    .map((line, n) => {
      if (n === 0 && !how.lineStart) {
        return line;
      }
      return (n === 0 ? line : line.replace(/^\s+/, '')).replace(LINE_START, (_m: string, space: string, mark: string) =>
        /^\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`
      );
    })
    .join('\n');
}

/**
 * Text from a document shown as written, on one line, also inside a link's text (every
 * bracket escaped): see the module comment.
 */
export function inertText(text: string): string {
  return escapeText(String(text ?? '').replace(/\s+/g, ' ').trim(), { lineStart: true, allBrackets: true });
}

/** A link destination that cannot end the link early nor open anything else. */
export function safeDestination(url: string): string {
  return String(url ?? '').replace(/[\s()<>\\`]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A run of backticks longer than any in `text`, at least `least` long. */
function fenceFor(text: string, least: number): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map(run => run.length));
  return '`'.repeat(Math.max(least, longest + 1));
}

function codeSpan(content: string, inTable: boolean): string {
  const body = inTable ? content.replace(/\|/g, '\\|') : content.replace(/\n/g, ' ');
  const fence = fenceFor(body, 1);
  const pad = /^[ `]|[ `]$/.test(body) ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** Inline tokens as Markdown; `lineStart` when the first begins a line. */
function inline(tokens: Token[], inTable = false, lineStart = true): string {
  let out = '';
  for (const token of tokens) {
    const at = lineStart || out.endsWith('\n');
    out += inlineToken(token, inTable, at);
  }
  return out;
}

function inlineToken(token: Token, inTable: boolean, lineStart: boolean): string {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens?.length
        ? inline(text.tokens, inTable, lineStart)
        : escapeText(text.text, { lineStart, inTable, source: true });
    }
    case 'escape':
      return `\\${(token as Tokens.Escape).text}`;
    case 'codespan':
      return codeSpan((token as Tokens.Codespan).text, inTable);
    case 'em':
      return `*${inline((token as Tokens.Em).tokens, inTable, false)}*`;
    case 'strong':
      return `**${inline((token as Tokens.Strong).tokens, inTable, false)}**`;
    case 'del':
      return `~~${inline((token as Tokens.Del).tokens, inTable, false)}~~`;
    case 'br':
      return '\\\n';
    case 'link': {
      const link = token as Tokens.Link;
      return `[${inline(link.tokens, inTable, false)}](${safeDestination(link.href)})`;
    }
    case 'image': {
      // Never an image: a link to it, fetched only if followed.
      const image = token as Tokens.Image;
      return `[image: ${escapeText(image.text, { inTable, source: true })}](${safeDestination(image.href)})`;
    }
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '[x] ' : '[ ] ';
    default:
      // Raw HTML, and anything this does not know: shown as the text it was written as.
      return escapeText(String((token as { text?: string }).text ?? token.raw ?? ''), { lineStart, inTable });
  }
}

/** `text` with `first` before its first line and `rest` before each other non-empty one. */
function indent(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, n) => (n === 0 ? first + line : line ? rest + line : rest.trimEnd()))
    .join('\n');
}

function table(token: Tokens.Table): string {
  const row = (cells: Tokens.TableCell[]): string =>
    `| ${cells.map(cell => inline(cell.tokens, true, false).replace(/\n/g, ' ')).join(' | ')} |`;
  const align = token.align.map(a => (a === 'center' ? ':---:' : a === 'right' ? '---:' : a === 'left' ? ':---' : '---'));
  return [row(token.header), `| ${align.join(' | ')} |`, ...token.rows.map(row)].join('\n');
}

function list(token: Tokens.List, bullet: string): string {
  let number = Number(token.start || 1);
  const items = token.items.map(item => {
    const marker = token.ordered ? `${number++}${bullet} ` : `${bullet} `;
    return indent(blocks(item.tokens, !token.loose), marker, ' '.repeat(marker.length));
  });
  return items.join(token.loose ? '\n\n' : '\n');
}

function block(token: Token, bullet: string): string {
  switch (token.type) {
    case 'paragraph':
      return inline((token as Tokens.Paragraph).tokens);
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : escapeText(text.text, { lineStart: true, source: true });
    }
    case 'heading': {
      const heading = token as Tokens.Heading;
      return `${'#'.repeat(Math.min(6, Math.max(1, heading.depth)))} ${inline(heading.tokens, false, false).replace(/\n/g, ' ')}`;
    }
    case 'blockquote':
      return indent(blocks((token as Tokens.Blockquote).tokens), '> ', '> ');
    case 'list':
      return list(token as Tokens.List, bullet);
    case 'code': {
      const code = token as Tokens.Code;
      const content = code.text.endsWith('\n') ? code.text : `${code.text}\n`;
      const fence = fenceFor(content, 3);
      const info = (code.lang ?? '').trim().split(/\s+/)[0].replace(/[`~]/g, '');
      return `${fence}${info}\n${content}${fence}`;
    }
    case 'hr':
      return '***';
    case 'table':
      return table(token as Tokens.Table);
    case 'space':
    case 'def':
      return ''; // blank lines are rebuilt; a definition's links are resolved already
    default:
      // An HTML block, and anything this does not know: shown as its text.
      return escapeText(String((token as { text?: string }).text ?? token.raw ?? '').trim(), { lineStart: true });
  }
}

/**
 * Block tokens as Markdown: blank lines between blocks, or single newlines in a tight
 * list's item. Two lists in a row take different markers, so they stay two lists.
 */
function blocks(tokens: Token[], tight = false): string {
  const parts: string[] = [];
  let previous: Tokens.List | null = null;
  for (const token of tokens) {
    let bullet = '-';
    if (token.type === 'list') {
      const current = token as Tokens.List;
      const same: boolean = previous !== null && previous.ordered === current.ordered;
      bullet = current.ordered ? (same ? ')' : '.') : same ? '*' : '-';
      previous = same ? null : current;
    } else if (token.type !== 'space') {
      previous = null;
    }
    const part = block(token, bullet);
    if (part !== '') {
      parts.push(part);
    }
  }
  return parts.join(tight ? '\n' : '\n\n');
}

/** `text` (Markdown) with raw HTML shown as text and images turned into links. */
export function inertMarkdown(text: string): string {
  return blocks(marked.lexer(String(text ?? ''), { gfm: true }));
}
