import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WIDGET_CSS } from '../src/widget/styles';

/** Every selector of every rule in `css` (no at-rules expected). */
function selectors(css: string): string[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return Array.from(plain.matchAll(/([^{}]+)\{[^{}]*\}/g)).flatMap(match =>
    match[1].split(',').map(selector => selector.trim())
  );
}

test('every widget rule is scoped under the widget root, so it cannot restyle the sidebar', () => {
  const all = selectors(WIDGET_CSS);
  assert.ok(all.length > 40, `parsed ${all.length} selectors`);
  assert.ok(!WIDGET_CSS.includes('@'), 'no at-rules: a media query would hide rules from this check');
  const loose = all.filter(selector => !/^\.athena-widget(?![\w-])/.test(selector));
  assert.deepEqual(loose, []);
});
