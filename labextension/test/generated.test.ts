import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { GENERATED_KEY, markGenerated } from '../src/core/generated';

test('an inserted cell is marked as athena\u2019s own in its metadata', () => {
  const metadata: Record<string, unknown> = { tags: ['mine'] };
  markGenerated({ setMetadata: (key, value) => (metadata[key] = value) });
  assert.deepEqual(metadata, { tags: ['mine'], athena_lab: { generated: true } });
});

test('the mark is the one the notebook parser skips (athena_lab/document.py)', () => {
  const python = readFileSync(join(process.cwd(), '..', 'athena_lab', 'document.py'), 'utf-8');
  assert.match(python, new RegExp(`GENERATED_MARK[^=]*= \\{"${GENERATED_KEY}": \\{"generated": True\\}\\}`));
});

test('the sidebar marks the cell it inserts', () => {
  const panel = readFileSync(join(process.cwd(), 'src', 'chatPanel.ts'), 'utf-8');
  const insert = panel.slice(panel.indexOf('async insert('), panel.indexOf('private _prefix('));
  assert.match(insert, /markGenerated\(cell\.model\)/);
});
