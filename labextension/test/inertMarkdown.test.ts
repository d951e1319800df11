import { test } from 'node:test';
import assert from 'node:assert/strict';

import { JSDOM } from 'jsdom';
import { marked } from 'marked';

import { answerAsMarkdown } from '../src/core/citations';
import { inertMarkdown, inertText } from '../src/core/inertMarkdown';
import { ICitation } from '../src/types';

// What a notebook's Markdown cell does with the text: Lab parses it with `marked` (GFM) and
// keeps, among much else, <img>, <svg>, <a> and its command linker. The payloads' effect is
// judged on that HTML, parsed by jsdom (the browser's HTML parser, parse5).
const { window } = new JSDOM('<!DOCTYPE html><body></body>');

function rendered(markdown: string): Element {
  const body = window.document.createElement('div');
  body.innerHTML = marked.parse(markdown, { async: false, gfm: true }) as string;
  return body;
}

const FETCHING = 'img, svg, image, picture, source, video, audio, iframe, object, embed, link, style, input, form, button, [style], [srcset], [background], [data-commandlinker-command]';

/** Every element in Markdown `markdown`'s rendering that could fetch or act, as tag names. */
function live(markdown: string): string[] {
  return Array.from(rendered(markdown).querySelectorAll(FETCHING)).map(e => e.outerHTML);
}

const EVIL = 'https://attacker.example';

/** Each a way the review or this test found to get a tag past the old line scanner, or past a
 * parser that reads the text differently from the renderer. */
const PAYLOADS: string[] = [
  `See <img src="${EVIL}/img?d=1"> and <button data-commandlinker-command="help:about">go</button>`,
  // A code span opening on one line and closing on the next: the old scanner paired the
  // second backtick with a later one and left the tag between them raw.
  `Code \`a\nb\` <img src="${EVIL}/split-span.png"> \`c\``,
  `![chart](${EVIL}/c.png) and ![ref][r]\n\n[r]: ${EVIL}/ref.png`,
  `Wow\\![a](${EVIL}/escaped-bang.png) and \\\\![b](${EVIL}/escaped-backslash.png)`,
  `[![badge](${EVIL}/badge.svg)](${EVIL}/)`,
  `<div>\n<img src="${EVIL}/html-block.png">\n</div>`,
  `<!-- x --><?php ?><!DOCTYPE x><svg><image href="${EVIL}/svg.png"/></svg>`,
  `<style>@import url(${EVIL}/style.css)</style><link rel=stylesheet href="${EVIL}/link.css">`,
  `<picture><source srcset="${EVIL}/srcset.png"></picture><video poster="${EVIL}/poster.png"></video>`,
  `| a | b |\n|---|---|\n| <img src="${EVIL}/cell.png"> | \`x\` ![i](${EVIL}/cell-image.png) |`,
  `- item <img src="${EVIL}/list.png">\n  > quote <img src="${EVIL}/quote.png">\n\n1. ![x](${EVIL}/ordered.png)`,
  `\`\`\`\n<img src="${EVIL}/in-fence.png">\n\`\`\`\n<img src="${EVIL}/after-fence.png">`,
  `~~~\n\`\`\`\n~~~\n<img src="${EVIL}/tilde-fence.png">`,
  `    indented <img src="${EVIL}/indented.png">\n\n<img src="${EVIL}/after-indented.png">`,
  `# Heading <img src="${EVIL}/heading.png">\nSetext <img src="${EVIL}/setext.png">\n===`,
  `*emphasis <img src="${EVIL}/em.png">* **strong ![x](${EVIL}/strong.png)** ~~del~~`,
  `a <img\nsrc="${EVIL}/tag-across-lines.png">`,
  `<a href="${EVIL}/a-tag"><img src="${EVIL}/img-in-a.png"></a>`
];

// Inert already: they must stay so (an entity or an escape must not turn into a tag).
const CONTROLS = [
  `&lt;img src="${EVIL}/entity.png"&gt; and \\<img src="${EVIL}/escaped-lt.png">`,
  '&amp;lt;b&amp;gt;',
  `[link](javascript:alert(1)) [ok](${EVIL}/page) <${EVIL}/autolink.png>`
];

test('no payload renders anything that fetches or acts, once made inert', () => {
  for (const control of CONTROLS) {
    assert.deepEqual(live(control), []);
    assert.deepEqual(live(inertMarkdown(control)), [], inertMarkdown(control));
    assert.equal(rendered(inertMarkdown(control)).textContent, rendered(control).textContent);
  }
  for (const payload of PAYLOADS) {
    const before = live(payload);
    const after = live(inertMarkdown(payload));
    assert.deepEqual(after, [], `${JSON.stringify(payload)} → ${JSON.stringify(inertMarkdown(payload))}`);
    assert.ok(before.length, `a payload that does nothing even before: ${payload}`);
  }
});

test('inert Markdown made inert again is still inert (a saved answer inserted twice)', () => {
  for (const payload of PAYLOADS) {
    assert.deepEqual(live(inertMarkdown(inertMarkdown(payload))), [], JSON.stringify(payload));
  }
});

test('the split code span stays code, and the tag after it shows as text', () => {
  const md = inertMarkdown(`Code \`a\nb\` <img src="${EVIL}/x.png"> \`c\``);
  assert.equal(md, `Code \`a b\` &lt;img src="${EVIL}/x.png"> \`c\``);
  const html = rendered(md);
  assert.deepEqual(Array.from(html.querySelectorAll('code')).map(c => c.textContent), ['a b', 'c']);
  assert.ok(html.textContent!.includes(`<img src="${EVIL}/x.png">`));
});

test('raw HTML becomes text a notebook shows instead of renders', () => {
  assert.equal(
    inertMarkdown('See <img src="http://evil/x?d=1"> and <button data-commandlinker-command="help:about">go</button>'),
    'See &lt;img src="http://evil/x?d=1"> and &lt;button data-commandlinker-command="help:about">go&lt;/button>'
  );
  assert.equal(inertMarkdown('<!-- hidden --> <?php ?> <!DOCTYPE x>'), '&lt;!-- hidden --> &lt;?php ?> &lt;!DOCTYPE x>');
});

test('images become links, escaped ones stay text', () => {
  assert.equal(inertMarkdown('![chart](http://evil/c.png)'), '[image: chart](http://evil/c.png)');
  assert.equal(inertMarkdown('a ![x][ref] b\n\n[ref]: http://evil/r.png'), 'a [image: x](http://evil/r.png) b');
  assert.equal(inertMarkdown('\\![not an image](u)'), '\\![not an image](u)');
  assert.equal(inertMarkdown('\\\\![x](u)'), '\\\\[image: x](u)', 'an escaped backslash leaves a real image');
  assert.equal(inertMarkdown('[![badge](http://b/i.svg)](http://b)'), '[[image: badge](http://b/i.svg)](http://b)');
});

test('code is kept as code, in a fence no content can close', () => {
  const fenced = '```html\n<img src="http://x">\n![a](b)\n```\n<b>after</b>';
  assert.equal(inertMarkdown(fenced), '```html\n<img src="http://x">\n![a](b)\n```\n\n&lt;b>after&lt;/b>');
  assert.equal(inertMarkdown('~~~\n<i>\n```\n~~~'), '````\n<i>\n```\n````');
  assert.equal(inertMarkdown('use `<div>` or ``a ` <b>`` here <i>'), 'use `<div>` or ``a ` <b>`` here &lt;i>');
  assert.equal(inertMarkdown('    indented <x>'), '```\nindented <x>\n```');
});

test('ordinary Markdown keeps its shape', () => {
  const md = '# Title\n\nSome *em*, **strong**, `code`, [a link](https://a.b/c) and snake_case [1].\n\n' +
    '- one\n- two\n  - nested\n\n1. first\n2. second\n\n> a quote\n\n| a | b |\n| --- | ---: |\n| 1 | 2 |';
  assert.equal(inertMarkdown(md), md);
  assert.equal(inertMarkdown('<https://flask.palletsprojects.com/> and a < b, 3<4'),
    '[https://flask.palletsprojects.com/](https://flask.palletsprojects.com/) and a < b, 3<4');
});

test('text from a document is shown as written, whatever it holds', () => {
  assert.equal(inertText(`<img src="${EVIL}/h.png">`), `&lt;img src="${EVIL}/h.png">`);
  assert.equal(inertText('# Not a heading\n- nor a list'), '\\# Not a heading - nor a list');
  assert.equal(inertText('a ](x) [b] ![c](d) *e* `f` &amp; _g_'), 'a \\](x) \\[b\\] \\!\\[c\\](d) \\*e\\* \\`f\\` &amp;amp; \\_g\\_');
  for (const text of ['1. one', '+ plus', '> quote', '===', 'AT&T <b>']) {
    assert.equal(rendered(inertText(text)).textContent!.trim(), text);
  }
});

const hostile: ICitation[] = [
  {
    id: 1,
    kind: 'text',
    path: 'docs/a)![x](https:/attacker.example/path.png.md',
    start_line: 3,
    end_line: 3,
    heading_path: `Setup > <img src="${EVIL}/heading.png">`
  },
  {
    id: 2,
    kind: 'pdf',
    path: 'papers/x.pdf',
    page: 1,
    record: {
      path: 'papers/x.pdf',
      title: `Crazy <img src="${EVIL}/title.png"> ones`,
      authors: [`<img src="${EVIL}/author.png">`, 'Ada ![x](https://attacker.example/author-md.png)'],
      year: `<img src="${EVIL}/year.png">` as unknown as number,
      doi: `10.1/<img src="${EVIL}/doi.png">`,
      arxiv: `<img src="${EVIL}/arxiv.png">`
    }
  },
  { id: `<img src="${EVIL}/id.png">` as unknown as number, kind: 'text', path: 'b.md', label: `<img src="${EVIL}/label.png">` }
];

test('inserted and copied answers: headings, paths, PDF records and ids stay text', () => {
  for (const base of [undefined, 'http://127.0.0.1:8888/files/']) {
    const md = answerAsMarkdown(`Minted [1] \`a\nb\` <img src="${EVIL}/answer.png"> \`c\` [2]`, hostile, '', 'nb.ipynb', base);
    assert.deepEqual(live(md), [], md);
    const text = rendered(md).textContent!;
    for (const shown of ['heading.png', 'title.png', 'author.png', 'year.png', 'doi.png', 'arxiv.png', 'label.png', 'answer.png']) {
      assert.ok(text.includes(`<img src="${EVIL}/${shown}">`), `${shown} is not shown as text:\n${md}`);
    }
    assert.ok(text.includes('Ada ![x](https://attacker.example/author-md.png)'));
    // Each source keeps its link (a path's ")" cannot end it early); any other link is a
    // URL in the text, which GFM shows as a link (followed only if clicked).
    const links = Array.from(rendered(md).querySelectorAll('a')).map(a => a.getAttribute('href') ?? '');
    const prefix = base ?? '';
    assert.ok(links.includes(`${prefix}docs/a%29!%5Bx%5D%28https%3A/attacker.example/path.png.md`), links.join('\n'));
    assert.ok(links.includes(`${prefix}papers/x.pdf#page=1`) && links.includes(`${prefix}b.md`), links.join('\n'));
  }
});

test('inserted answers are inert, with their source links intact', () => {
  const md = answerAsMarkdown('Minted at dawn [1] <img src="http://evil/x">', [
    { id: 1, kind: 'text', path: 'docs/q.md', start_line: 3, end_line: 3 }
  ], '', 'nb.ipynb');
  assert.equal(md, 'Minted at dawn [1] &lt;img src="http://evil/x">\n\n**Sources**\n\n1. [docs/q.md:3](docs/q.md)\n');
});
