/**
 * Follow the bottom of a scrolling log while the reader is there. A reader who scrolled
 * up to read stays where they are while the answer streams on; scrolling back to the
 * bottom (or sending a question) follows again.
 */

/** Within this many pixels of the end counts as "at the bottom" (rounding, a last line). */
const SLACK = 32;

export function atBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK;
}

export class BottomFollower {
  private _following = true;

  constructor(private _el: HTMLElement) {
    // Only scroll positions change this: content growing under a still reader does not.
    _el.addEventListener('scroll', () => {
      this._following = atBottom(_el);
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

  /** Content changed: keep the bottom in view if the reader is following it. */
  update(): void {
    if (this._following) {
      this._el.scrollTop = this._el.scrollHeight;
    }
  }
}
