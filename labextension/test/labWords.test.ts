import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { answererChip, inLabWords } from '../src/labWords';

test('a missing model names the Lab setting, not a CLI flag', () => {
  const said = inLabWords('no model configured for the openai provider: set llm.model or pass --model');
  assert.equal(
    said,
    'no model configured for the openai provider: choose a Model in Settings \u2192 Settings Editor \u2192 ' +
      'Athena chat (or set model under [llm] in ~/.config/athena/config.toml)'
  );
  assert.doesNotMatch(said, /--/);
});

test('a model file Lab has no setting for is named as the key in your own config', () => {
  assert.equal(
    inLabWords('no model file at /m.gguf: set llm.model_path or pass --model-path FILE.gguf'),
    'no model file at /m.gguf: set model_path under [llm] in ~/.config/athena/config.toml to a .gguf file'
  );
  assert.doesNotMatch(inLabWords("no bundled model called 'x': use one of a, b, or pass --model-path FILE.gguf"), /--/);
});

test('a message without flags is left alone', () => {
  assert.equal(inLabWords('the model server at http://x did not answer'), 'the model server at http://x did not answer');
});

test('the chip says the chosen provider, then what answered, then that the chosen one failed', () => {
  assert.equal(answererChip('extractive', { provider: '', model: '' }).text, 'extractive');
  assert.equal(answererChip('extractive', { provider: 'openai', model: 'gpt-4o-mini' }).text, 'openai:gpt-4o-mini');
  assert.equal(answererChip('extractive', { provider: 'openai', model: '' }, { mode: 'openai:gpt-4o-mini' }).text,
    'openai:gpt-4o-mini');
  const failed = answererChip('extractive', { provider: 'openai', model: '' }, { error: 'set llm.model or pass --model' });
  assert.equal(failed.text, 'openai failed');
  assert.ok(failed.failed && failed.title.includes('choose a Model in Settings'));
});

test('no help text sends [llm] to the folder\'s athena.toml, where it is not read', () => {
  // README "Configuration": a folder's own config may only say what to index and how.
  const schema = readFileSync(join(__dirname, '..', '..', 'schema', 'plugin.json'), 'utf8');
  const help: string[] = Object.values(JSON.parse(schema).properties as Record<string, { description: string }>).map(
    p => p.description
  );
  for (const text of [...help, inLabWords('set llm.model or pass --model'), inLabWords('set llm.model_path or pass --model-path FILE.gguf')]) {
    assert.doesNotMatch(text, /\[llm\][^.]*athena\.toml|athena\.toml \(?\[llm\]/, text);
  }
  assert.match(help[0], /config\.toml/);
});
