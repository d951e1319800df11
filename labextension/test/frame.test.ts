/**
 * core/frame.ts: runs come at most once per frame, and after a costly run the scheduler
 * rests for REST_FACTOR × its cost, so a long answer's re-renders cannot take the main thread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { FrameScheduler, REST_FACTOR } from '../src/core/frame';

const globals = globalThis as unknown as Record<string, unknown>;
globals.window = globalThis; // the scheduler's timers are window's in a browser
globals.requestAnimationFrame = (callback: () => void) => setTimeout(callback, 16) as unknown as number;
globals.cancelAnimationFrame = (handle: number) => clearTimeout(handle);

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a render that costs `ms` of main thread
  }
}

test('many schedules before a frame make one run', async () => {
  let runs = 0;
  const frame = new FrameScheduler(() => runs++);
  for (let i = 0; i < 50; i++) {
    frame.schedule();
  }
  await frame.ran();
  assert.equal(runs, 1);
});

test('after a costly run the next one waits REST_FACTOR times its cost', async () => {
  const cost = 60;
  const ends: number[] = [];
  const frame = new FrameScheduler(() => {
    busy(cost);
    ends.push(Date.now());
  });
  frame.schedule();
  await frame.ran();
  frame.schedule(); // asked for at once, as a stream's next chunk would
  await frame.ran();
  const gap = ends[1] - ends[0]; // rest, then a frame, then the second run's own cost
  assert.ok(gap >= REST_FACTOR * cost + cost - 5, `gap ${gap} ms`);
});

test('flush runs at once even while resting, and cancel lets waiters go', async () => {
  let runs = 0;
  const frame = new FrameScheduler(() => runs++);
  frame.rest(10_000);
  frame.schedule();
  assert.ok(frame.pending);
  frame.flush();
  assert.equal(runs, 1);
  frame.rest(10_000);
  frame.schedule();
  const waiting = frame.ran();
  frame.cancel();
  await waiting; // would hang if cancel left it
  assert.equal(runs, 1);
});
