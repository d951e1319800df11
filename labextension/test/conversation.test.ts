import { test } from 'node:test';
import assert from 'node:assert/strict';

import { awaitsAnswer, ConversationLoader } from '../src/core/conversation';
import { IConversation, IStoredMessage } from '../src/types';

function conversation(id: string, roles: Array<'user' | 'assistant'>): IConversation {
  const messages = roles.map((role, i) => ({ role, content: `${role} ${i}` }) as IStoredMessage);
  return { id, title: id, messages } as unknown as IConversation;
}

/** A server whose GET answers only when the test says so, like a slow round trip. */
function slowServer(stored: Map<string, IConversation>) {
  const pending: Array<() => void> = [];
  const get = (id: string) =>
    new Promise<IConversation>((resolve, reject) => {
      pending.push(() => {
        const found = stored.get(id);
        if (found) {
          resolve(found);
        } else {
          reject(Object.assign(new Error(`No conversation ${id}.`), { status: 404 }));
        }
      });
    });
  return { get, answerAll: () => pending.splice(0).forEach(answer => answer()) };
}

test('opening a conversation shows it, and a deleted one is gone (404), not an error', async () => {
  const server = slowServer(new Map([['c1', conversation('c1', ['user', 'assistant'])]]));
  const loader = new ConversationLoader({ get: server.get });
  const opening = loader.open('c1');
  server.answerAll();
  const opened = await opening;
  assert.equal(opened.kind, 'open');
  assert.equal(opened.kind === 'open' && opened.conversation.messages.length, 2);
  const missing = loader.open('deleted');
  server.answerAll();
  assert.deepEqual(await missing, { kind: 'gone' });
});

test('a conversation that loads after the reader chose something else (New, a question) is stale', async () => {
  const server = slowServer(new Map([['c1', conversation('c1', ['user', 'assistant'])]]));
  const loader = new ConversationLoader({ get: server.get });
  const opening = loader.open('c1');
  loader.moveOn(); // the reader pressed New while it loaded
  server.answerAll();
  assert.deepEqual(await opening, { kind: 'stale' });
  const first = loader.open('c1');
  const second = loader.open('c1'); // another choice from the history list
  server.answerAll();
  assert.deepEqual(await first, { kind: 'stale' });
  assert.equal((await second).kind, 'open');
});

test('an error other than 404 reaches the front end with its message', async () => {
  const loader = new ConversationLoader({
    get: () => Promise.reject(Object.assign(new Error('athena server answered 500'), { status: 500 }))
  });
  await assert.rejects(loader.open('c1'), /answered 500/);
});

test('a conversation left mid-answer is shown again once the server stored its answer, unless the reader moved on', async () => {
  const stored = new Map([['c1', conversation('c1', ['user'])]]);
  let gets = 0;
  const loader = new ConversationLoader({
    get: async id => {
      gets++;
      if (gets === 2) {
        stored.set('c1', conversation('c1', ['user', 'assistant'])); // the interrupted answer is stored
      }
      return stored.get(id)!;
    },
    intervalMs: 1,
    checks: 5
  });
  assert.equal(awaitsAnswer(stored.get('c1')!), true);
  const answered = await loader.answered('c1');
  assert.equal(answered?.messages.length, 2);
  assert.equal(awaitsAnswer(answered!), false);

  stored.set('c2', conversation('c2', ['user']));
  const waiting = loader.answered('c2');
  loader.moveOn();
  assert.equal(await waiting, null, 'a look for the answer stops once the reader chose something else');

  const never = new ConversationLoader({ get: async () => conversation('c3', ['user']), intervalMs: 1, checks: 3 });
  assert.equal(await never.answered('c3'), null, 'it gives up when no answer comes');
});
