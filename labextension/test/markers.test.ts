import { test } from 'node:test';
import assert from 'node:assert/strict';

import { JSDOM } from 'jsdom';

import { decorateAnswer, notFoundNote, unsupportedNote } from '../src/core/markers';

// The markers work on a rendered DOM (at call time): jsdom gives node the browser's document.
const { window } = new JSDOM('<!DOCTYPE html><body></body>');
const globals = globalThis as unknown as Record<string, unknown>;
globals.document = window.document;
globals.NodeFilter = window.NodeFilter;

/** What Lab's renderer or core/render.ts leaves in a host: sanitised HTML. */
function rendered(html: string): HTMLElement {
  const host = window.document.createElement('div');
  host.innerHTML = html;
  return host;
}

function marker(ids: number[], text: string): HTMLElement {
  const button = window.document.createElement('button');
  button.className = 'marker';
  button.dataset.citationId = String(ids[0]);
  button.textContent = text;
  return button as unknown as HTMLElement;
}

test('decorateAnswer makes known [n] in prose buttons, and leaves code and unknown numbers as text', () => {
  const host = rendered('<p>Install it [1]. See [7].</p><pre><code>x = a[1]</code></pre>');
  decorateAnswer(host, [], new Set([1]), marker);
  const buttons = Array.from(host.querySelectorAll('button'));
  assert.deepEqual(buttons.map(b => b.textContent), ['[1]']);
  assert.match(host.textContent ?? '', /See \[7\]\./);
  assert.equal(host.querySelector('code')?.textContent, 'x = a[1]');
});

test('decorateAnswer marks the unsupported sentence in the text and returns the one it cannot find', () => {
  const host = rendered('<p>The sky is green. Water is wet [1].</p>');
  const missing = decorateAnswer(host, ['The sky is green.', 'Cats can fly.'], new Set([1]), marker);
  assert.equal(host.querySelector('mark.athena-unsupported')?.textContent, 'The sky is green.');
  assert.deepEqual(missing, ['Cats can fly.']);
  assert.equal(host.querySelectorAll('button').length, 1);
});

test('unsupportedNote counts every unsupported sentence and lists only the ones not marked in the text', () => {
  const note = unsupportedNote('athena-', 'athena-unsupported', 2, ['Cats can fly.']);
  assert.equal(note.className, 'athena-unsupported-list');
  assert.equal(note.dataset.testid, 'athena-unsupported');
  assert.match(note.querySelector('strong')?.textContent ?? '', /2 sentences not supported by the sources/);
  assert.deepEqual(Array.from(note.querySelectorAll('li')).map(li => li.textContent), ['Cats can fly.']);
  assert.equal(unsupportedNote('', 'unsupported', 1, []).querySelector('ul'), null);
});

test('a sentence using a name no indexed file holds is marked as such, once, and not as unsupported too', () => {
  const host = rendered(
    '<p>Set SWAGGER_UI_ENABLED to false to hide the page. Use docs_url=None [1].</p>' +
      '<pre><code>app = FastAPI(redoc_enabled=False)\napp.run()</code></pre>'
  );
  const notFound = [
    { name: 'SWAGGER_UI_ENABLED', sentence: 'Set SWAGGER_UI_ENABLED to false to hide the page.' },
    { name: 'redoc_enabled', sentence: 'app = FastAPI(redoc_enabled=False)' }
  ];
  const missing = decorateAnswer(
    host,
    ['Set SWAGGER_UI_ENABLED to false to hide the page.'],
    new Set([1]),
    marker,
    notFound
  );
  const marks = Array.from(host.querySelectorAll('mark.athena-not-found'));
  assert.deepEqual(
    marks.map(m => m.textContent),
    ['Set SWAGGER_UI_ENABLED to false to hide the page.', 'app = FastAPI(redoc_enabled=False)']
  );
  assert.equal(marks[0].getAttribute('title'), 'Not found in your documents: SWAGGER_UI_ENABLED');
  assert.equal(host.querySelectorAll('mark.athena-unsupported').length, 0); // said once, as not found
  assert.deepEqual(missing, []);
  assert.equal(host.querySelectorAll('button').length, 1); // the supported sentence keeps its [1]
  const note = notFoundNote('athena-', notFound)!;
  assert.match(note.textContent ?? '', /Not found in your documents \(2\)/);
  assert.deepEqual(
    Array.from(note.querySelectorAll('code')).map(c => c.textContent),
    ['SWAGGER_UI_ENABLED', 'redoc_enabled']
  );
  assert.equal(notFoundNote('', []), null);
});

test('a full stop written after the markers goes back before them, where the sentence ends', () => {
  // Issue 31: "… url_for [1]." left its "." dangling after the [1] button.
  const host = rendered('<p>Build it with url_for [1]. Then test it [1] [2]; done [3]!</p>');
  decorateAnswer(host, [], new Set([1, 2, 3]), marker);
  assert.equal(host.textContent, 'Build it with url_for. [1] Then test it; [1] [2] done! [3]');
  assert.equal(host.querySelectorAll('button').length, 4);
  assert.doesNotMatch(host.textContent ?? '', /\]\s*[.,;:!?]/);
  const unknown = rendered('<p>See [7].</p>');
  decorateAnswer(unknown, [], new Set([1]), marker);
  assert.equal(unknown.textContent, 'See [7].'); // not a marker: left as written
});
