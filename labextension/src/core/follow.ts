/**
 * Follow the bottom of a scrolling log while the reader is there — the sidebar, the chat
 * page and the drop-in share it. A reader who scrolled up to read stays where they are
 * while the answer streams on; scrolling back to the bottom (or sending a question)
 * follows again. Scrolling is paced by frames (./frame.ts): a stream's many updates per
 * frame cost one layout read and one scroll.
 */
import { FrameScheduler } from './frame';

/** Within this many pixels of the end counts as "at the bottom" (rounding, a last line). */
const SLACK = 32;

/** Keys that scroll a focused log up: the reader is leaving the bottom. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/** A move up this soon (ms) after the reader's hand on the log is the reader's. */
const HAND_MS = 1000;

function editable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

export function atBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK;
}

export class BottomFollower {
  private _following = true;
  /** Where this follower last scrolled to: a scroll event at or below it is not the reader's. */
  private _pinned = 0;
  /** The scroll position at the last scroll event, to tell a move up from a move down. */
  private _lastTop = 0;
  /** When the reader last touched the log (ms): a move up soon after is theirs. */
  private _handled = -Infinity;
  private _frame = new FrameScheduler(() => this._scroll());

  constructor(private _el: HTMLElement) {
    // A wheel turned up or an up key is the reader leaving, before the view has moved: a
    // smooth scroll's first step can still be inside SLACK, and our next frame's scroll
    // would cancel the reader's (a wheel fling swallowed once in CI).
    _el.addEventListener(
      'wheel',
      event => {
        this._touched();
        if (event.deltaY < 0 && !event.ctrlKey && this._canScrollUp()) {
          this._leave(); // (ctrl and the wheel zoom)
        }
      },
      { passive: true }
    );
    _el.addEventListener('keydown', event => {
      this._touched();
      if (UP_KEYS.has(event.key) && !editable(event.target) && this._canScrollUp()) {
        this._leave(); // (ArrowUp in the composer moves its caret)
      }
    });
    for (const type of ['pointerdown', 'touchstart']) {
      _el.addEventListener(type, () => this._touched(), { passive: true });
    }
    _el.addEventListener('scroll', () => this._scrolled());
  }

  get following(): boolean {
    return this._following;
  }

  /** Start following (a question was just sent, a conversation opened). */
  follow(): void {
    this._following = true;
    this.update();
  }

  /** Content changed: keep the bottom in view (at the next frame) if the reader follows it. */
  update(): void {
    if (this._following) {
      this._frame.schedule();
    }
  }

  private _leave(): void {
    this._following = false;
    this._frame.cancel();
  }

  /** The reader's hand on the log (a wheel, a key, the scrollbar, a finger): when. */
  private _touched(): void {
    this._handled = Date.now();
  }

  private _canScrollUp(): boolean {
    return this._el.scrollTop > 0 && this._el.scrollHeight > this._el.clientHeight;
  }

  /**
   * Only scroll positions change this: content growing under a still reader does not. A
   * move up within a second of the reader's hand on the log, leaving a gap below, is
   * theirs, however small (a scrollbar dragged, a finger). Other moves (content that shrank,
   * the browser keeping an anchor in view) keep the rule of SLACK. Our own scroll's event
   * can arrive after more text grew under it (the gap is then over SLACK although the
   * reader did nothing): only a move up from where we put the view counts.
   */
  private _scrolled(): void {
    const el = this._el;
    const top = el.scrollTop;
    const movedUp = top < this._lastTop - 1;
    this._lastTop = top;
    if (movedUp && Date.now() - this._handled < HAND_MS && el.scrollHeight - top - el.clientHeight > 1) {
      this._following = false;
      return;
    }
    this._following = atBottom(el) || (this._following && top >= this._pinned - 1);
  }

  private _scroll(): void {
    if (this._following) {
      this._el.scrollTop = this._el.scrollHeight;
      this._pinned = this._el.scrollTop;
    }
  }
}
