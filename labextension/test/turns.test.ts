import { test } from 'node:test';
import assert from 'node:assert/strict';

import { IAnswerState } from '../src/core/answer';
import { ChatTurns, StreamChat } from '../src/core/turns';
import { ChatEvent, IChatRequest } from '../src/types';

/**
 * A server turn as recorded on the wire: `start`, one chunk, then it waits until the
 * reader aborts (as a model still writing would), unless `finish` lets it end with `done`.
 */
function recordedServer(asked: IChatRequest[]): { stream: StreamChat; finish: () => void } {
  let finish = (): void => undefined;
  const stream: StreamChat = (request, onEvent, signal) => {
    asked.push(request);
    return new Promise<void>((resolve, reject) => {
      const events: ChatEvent[] = [
        { type: 'start', data: { conversation_id: 'c1' } },
        { type: 'chunk', data: { content: 'Tokens rotate' } }
      ];
      events.forEach(onEvent);
      finish = () => {
        onEvent({ type: 'done', data: { mode: 'extractive' } });
        resolve();
      };
      signal?.addEventListener('abort', () =>
        reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }))
      );
    });
  };
  return { stream, finish: () => finish() };
}

function chat(stream: StreamChat) {
  const seen = { conversation: null as string | null, busy: [] as boolean[] };
  const turns = new ChatTurns({
    stream,
    conversation: () => seen.conversation,
    onConversation: id => (seen.conversation = id),
    onBusy: busy => seen.busy.push(busy)
  });
  return { turns, seen };
}

test('a turn asks in the current conversation and reports the one the server started', async () => {
  const asked: IChatRequest[] = [];
  const server = recordedServer(asked);
  const { turns, seen } = chat(server.stream);
  const shown: IAnswerState[] = [];
  const done = turns.ask({ question: 'how do tokens rotate?' }, next => shown.push(next));
  assert.equal(turns.busy, true);
  server.finish();
  const last = await done;
  assert.deepEqual([last.text, last.mode, last.finished], ['Tokens rotate', 'extractive', true]);
  assert.equal(seen.conversation, 'c1');
  assert.deepEqual(seen.busy, [true, false]);
  const followUp = turns.ask({ question: 'and when?' }, () => undefined);
  turns.stop();
  await followUp;
  assert.equal(asked[1].conversationId, 'c1', 'the follow-up is asked in the same conversation');
});

test('Stop keeps the partial answer, shown as stopped', async () => {
  const { turns, seen } = chat(recordedServer([]).stream);
  const shown: IAnswerState[] = [];
  const done = turns.ask({ question: 'q' }, next => shown.push(next));
  turns.stop();
  const last = await done;
  assert.deepEqual([last.text, last.stopped], ['Tokens rotate', true]);
  assert.equal(shown[shown.length - 1], last);
  assert.equal(turns.busy, false);
  assert.deepEqual(seen.busy, [true, false]);
});

test('an abandoned turn (New) shows nothing more and cannot bring its conversation back', async () => {
  const { turns, seen } = chat(recordedServer([]).stream);
  const shown: IAnswerState[] = [];
  const done = turns.ask({ question: 'q' }, next => shown.push(next));
  const before = shown.length;
  seen.conversation = null; // New
  turns.abandon();
  await done;
  assert.equal(shown.length, before, 'no stopped state is drawn after New');
  assert.equal(seen.conversation, null);
  assert.equal(turns.busy, false);
});
