/**
 * Work paced by the display, not by the stream: `schedule()` any number of times and the
 * callback runs once, at the next animation frame. A token stream sends dozens of chunks
 * per frame; redrawing per chunk re-renders the whole answer per token (O(n²), and the
 * display lags behind the stream), redrawing per frame costs at most what the screen shows.
 *
 * requestAnimationFrame does not fire in a background tab (and is throttled in hidden
 * iframes), so a timer races it: whichever comes first runs the callback and cancels the
 * other. A visible tab always gets the frame first; a hidden one still finishes its work
 * (at the browser's throttled timer rate), so an answer that ends unseen is drawn in full.
 *
 * A frame is not always cheap enough: re-rendering a long answer's Markdown costs tens of
 * ms, and a slow stream (a model writing 20–50 tokens a second) asks for a render per
 * token. After each run the scheduler rests for REST_FACTOR × what the run cost (`rest()`
 * for work that finishes asynchronously), so drawing takes at most about a third of the
 * main thread however long the answer grows, and typing, scrolling and Lab stay smooth.
 */

/** The timer that stands in for a frame that does not come (hidden tab), in ms. */
export const FALLBACK_MS = 100;
/** Idle time after a run, as a multiple of what the run cost. */
export const REST_FACTOR = 2;

export class FrameScheduler {
  private _frame = 0;
  private _timer = 0;
  private _waiters: Array<() => void> = [];
  private _restUntil = 0;

  constructor(private _run: () => void) {}

  /** Keep the next run `ms` away (the caller's last run cost ms / REST_FACTOR). */
  rest(ms: number): void {
    this._restUntil = Math.max(this._restUntil, now() + ms);
  }

  /** True while a run is scheduled and has not happened yet. */
  get pending(): boolean {
    return this._frame !== 0 || this._timer !== 0;
  }

  /** Run the callback at the next frame (once, however often this is called before it). */
  schedule(): void {
    if (this.pending) {
      return;
    }
    const wait = this._restUntil - now();
    if (wait > 0) {
      // resting: no frame yet, a timer until the rest is over, then the next frame
      this._timer = window.setTimeout(() => {
        this._timer = 0;
        this.schedule();
      }, wait);
      return;
    }
    const fire = () => this.flush();
    this._frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(fire) : 0;
    this._timer = window.setTimeout(fire, FALLBACK_MS);
  }

  /** Run now if a run is scheduled (e.g. the stream ended: draw the last state at once). */
  flush(): void {
    if (!this.pending) {
      return;
    }
    this._unschedule();
    const started = now();
    try {
      this._run();
    } finally {
      this.rest(REST_FACTOR * (now() - started));
      this._release();
    }
  }

  /** Drop a scheduled run (whoever waits for it is let go). */
  cancel(): void {
    this._unschedule();
    this._release();
  }

  private _unschedule(): void {
    if (this._frame) {
      cancelAnimationFrame(this._frame);
    }
    if (this._timer) {
      window.clearTimeout(this._timer);
    }
    this._frame = this._timer = 0;
  }

  private _release(): void {
    this._waiters.splice(0).forEach(resolve => resolve());
  }

  /** Resolves once the scheduled run has happened (at once when none is scheduled). */
  ran(): Promise<void> {
    return this.pending ? new Promise(resolve => this._waiters.push(resolve)) : Promise.resolve();
  }
}

function now(): number {
  return typeof performance === 'object' ? performance.now() : Date.now();
}

/**
 * Count one render of an answer that began at `started` (performance.now()): the node's
 * `data-renders` and `data-render-ms` (total), which the browser tests read
 * (tests/browser/test_render_pacing.py) and anyone can inspect in devtools.
 */
export function countRender(node: HTMLElement, started: number): void {
  node.dataset.renders = String(Number(node.dataset.renders ?? 0) + 1);
  node.dataset.renderMs = (Number(node.dataset.renderMs ?? 0) + performance.now() - started).toFixed(1);
}
