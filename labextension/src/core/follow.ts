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

export function atBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK;
}

export class BottomFollower {
  private _following = true;
  /** Where this follower last scrolled to: a scroll event at or below it is not the reader's. */
  private _pinned = 0;
  private _frame = new FrameScheduler(() => this._scroll());

  constructor(private _el: HTMLElement) {
    // Only scroll positions change this: content growing under a still reader does not.
    // Our own scroll's event can arrive after more text grew under it (the gap is then
    // over SLACK although the reader did nothing): only a move up from where we put the
    // view means the reader scrolled away.
    _el.addEventListener('scroll', () => {
      this._following = atBottom(_el) || (this._following && _el.scrollTop >= this._pinned - 1);
    });
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

  private _scroll(): void {
    if (this._following) {
      this._el.scrollTop = this._el.scrollHeight;
      this._pinned = this._el.scrollTop;
    }
  }
}
