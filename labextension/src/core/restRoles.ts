/**
 * reStructuredText roles in Markdown text: a model that read Sphinx docs writes
 * ":func:`~flask.url_for`" in its answer, which Markdown shows as the raw role and a code
 * span. Here a role becomes what Sphinx would show: the name as code (`url_for`, the last
 * part after a `~`), or for a cross-reference its title (`:ref:`Routing <routing>`` →
 * Routing). Code blocks and code spans are left as written. Pure, unit-tested in node.
 */

/** Roles Sphinx shows as code: Python objects, options, files, literals. */
const CODE_ROLES = new Set([
  'func', 'meth', 'class', 'attr', 'data', 'exc', 'obj', 'mod', 'const', 'type', 'confval', 'envvar',
  'option', 'program', 'file', 'command', 'code', 'samp', 'kbd', 'makevar', 'setting', 'decorator'
]);

const ROLE = /:((?:[\w-]+:)*[\w+-]+):`([^`\n]+)`/g;
// A fenced block, or an inline code span (one or more backticks, closed by as many).
const CODE = /(^|\n)(```|~~~)[\s\S]*?(\n\2[^\n]*|$)|(?<!`)(`+)(?!`)[^\n]*?(?<!`)\4(?!`)/g;

function shown(role: string, content: string): string {
  const name = role.split(':').pop() ?? role;
  const titled = /^(.*?)\s*<[^<>]*>$/s.exec(content);
  let text = (titled ? titled[1] : content).trim();
  if (!titled && text.startsWith('~')) {
    text = text.slice(1).split('.').pop() ?? text;
  }
  text = text.replace(/^[!~]/, '');
  return CODE_ROLES.has(name) && !titled ? '`' + text + '`' : text;
}

/** `markdown` with its reST roles shown as Sphinx shows them, outside code. */
export function withoutRestRoles(markdown: string): string {
  if (!markdown.includes(':`')) {
    return markdown;
  }
  let out = '';
  let cursor = 0;
  const replace = (prose: string) => prose.replace(ROLE, (_, role: string, content: string) => shown(role, content));
  for (const code of markdown.matchAll(CODE)) {
    const at = code.index ?? 0;
    // A role's own backticks look like a code span: a span right after ":role:" is the role.
    if (code[4] && /:[\w+-]+:$/.test(markdown.slice(cursor, at))) {
      continue;
    }
    out += replace(markdown.slice(cursor, at)) + code[0];
    cursor = at + code[0].length;
  }
  return out + replace(markdown.slice(cursor));
}
