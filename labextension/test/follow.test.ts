/**
 * core/follow.ts: the log follows its bottom while the reader is there, and a reader who
 * turns the wheel up or scrolls up is left where they are, even while the first step of a
 * smooth scroll is still within a line of the end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BottomFollower } from '../src/core/follow';

const globals = globalThis as unknown as Record<string, unknown>;
globals.window = globalThis;
globals.requestAnimationFrame = (callback: () => void) => setTimeout(callback, 16) as unknown as number;
globals.cancelAnimationFrame = (handle: number) => clearTimeout(handle);

/** A scrolling box as a browser keeps it: the position is clamped, and moving it fires `scroll`. */
class Log extends EventTarget {
  clientHeight = 400;
  scrollHeight = 400;
  private _top = 0;

  get scrollTop(): number {
    return this._top;
  }

  set scrollTop(value: number) {
    this._top = Math.max(0, Math.min(value, this.scrollHeight - this.clientHeight));
  }

  /** The browser's scroll event for a move (events are dispatched after the move). */
  moveTo(top: number): void {
    this.scrollTop = top;
    this.dispatchEvent(new Event('scroll'));
  }

  get gap(): number {
    return this.scrollHeight - this._top - this.clientHeight;
  }
}

function wheel(deltaY: number, ctrlKey = false): Event {
  return Object.assign(new Event('wheel'), { deltaY, ctrlKey });
}

const frame = () => new Promise(resolve => setTimeout(resolve, 40));

async function streamed(log: Log, follower: BottomFollower, px: number): Promise<void> {
  log.scrollHeight += px;
  follower.update();
  await frame();
  log.dispatchEvent(new Event('scroll')); // the follower's own scroll, as the browser reports it
}

test('a growing answer keeps the bottom in view while the reader is there', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  for (let i = 0; i < 5; i++) {
    await streamed(log, follower, 300);
    assert.equal(log.gap, 0);
  }
  assert.ok(follower.following);
});

test('a wheel turned up leaves the reader where they are, before the view moves', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.scrollHeight += 200; // more text, its frame not yet run
  follower.update();
  log.dispatchEvent(wheel(-100)); // the reader's wheel, before the smooth scroll's first step
  await frame();
  assert.equal(log.gap, 200, 'the scheduled frame must not pull the view down');
  assert.equal(follower.following, false);
});

test('a smooth scroll up whose first step stays within a line of the end is the reader leaving', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.dispatchEvent(new Event('pointerdown')); // the reader takes the scrollbar
  log.moveTo(log.scrollTop - 10); // 10 px up: still "at the bottom" by SLACK
  assert.equal(follower.following, false);
  await streamed(log, follower, 300);
  assert.equal(log.gap, 310, 'the reader stays where they scrolled to');
});

test('a small move up nobody made (the browser keeping an anchor in view) keeps following', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.moveTo(log.scrollTop - 10);
  assert.ok(follower.following);
  await streamed(log, follower, 300);
  assert.equal(log.gap, 0);
});

test('a wheel that cannot move the log up, or zooms, leaves nobody behind', async () => {
  const log = new Log(); // nothing to scroll yet
  const follower = new BottomFollower(log as unknown as HTMLElement);
  log.dispatchEvent(wheel(-100));
  assert.ok(follower.following, 'a log that does not overflow cannot be scrolled up');
  await streamed(log, follower, 2000);
  log.dispatchEvent(wheel(-100, true)); // ctrl and the wheel: the page zooms
  assert.ok(follower.following);
  await streamed(log, follower, 300);
  assert.equal(log.gap, 0);
});

test('content that shrinks under a following reader keeps them following', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.scrollHeight -= 50; // a re-render came out shorter: the browser clamps the view
  log.moveTo(log.scrollTop);
  assert.ok(follower.following);
  await streamed(log, follower, 300);
  assert.equal(log.gap, 0);
});

test('scrolling back down to the end follows again, and sending a question always does', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.dispatchEvent(wheel(-500));
  log.moveTo(0);
  await streamed(log, follower, 300);
  assert.equal(log.scrollTop, 0);
  log.moveTo(log.scrollHeight); // the reader scrolls to the end
  assert.ok(follower.following);
  await streamed(log, follower, 300);
  assert.equal(log.gap, 0);
  log.dispatchEvent(wheel(-500));
  log.moveTo(100);
  follower.follow(); // a question sent
  await frame();
  assert.equal(log.gap, 0);
});

test('an up key in the log leaves the bottom; other keys do not', async () => {
  const log = new Log();
  const follower = new BottomFollower(log as unknown as HTMLElement);
  await streamed(log, follower, 2000);
  log.dispatchEvent(Object.assign(new Event('keydown'), { key: 'a' }));
  assert.ok(follower.following);
  log.dispatchEvent(Object.assign(new Event('keydown'), { key: 'PageUp' }));
  assert.equal(follower.following, false);
});
