/**
 * Index status strip: files, chunks, when the index last changed ("updated 3 s ago",
 * ticking locally; re-read every LIVE_MS while the server follows edits), how far the vectors are, a warnings
 * badge that opens the per-file list, and a reindex button that shows the job's progress
 * (phase, vectors done / total, rate, time left) until it ends. While any index run is
 * changing the index — this sidebar's, or `athena index` in a terminal — the strip
 * refreshes itself, so the numbers move without a click.
 */
import * as api from '../api';
import { isRunning, jobDoneText, jobProgressText, updatedAgo, vectorsLine } from '../progressText';
import { IFileWarnings, IIndexInfo, IReindexJob, IVectorState } from '../types';
import { button, h } from '../core/dom';

const POLL_MS = 1000;
const FOLLOW_MS = 2000;
const LIVE_MS = 10000; // the live index changes the index on saves: re-read it this often
const TICK_MS = 1000;

/** The server reports epoch seconds; ISO strings are accepted too. */
function formatWhen(value: number | string | null): string {
  if (value === null || value === '') {
    return 'never';
  }
  const when = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return isNaN(when.getTime()) ? String(value) : when.toLocaleString();
}

function fileWarnings(item: IFileWarnings, failed = false): HTMLElement {
  return h(
    'li',
    { class: failed ? 'athena-error' : '' },
    h('code', {}, item.path),
    failed ? ' (failed)' : '',
    h('ul', {}, ...(item.warnings ?? []).map(w => h('li', {}, w)))
  );
}

export class IndexStatusView {
  readonly node: HTMLElement;
  private _summary = h('span', { class: 'athena-index-summary', 'data-testid': 'athena-index-summary' });
  private _vectors = h('div', { class: 'athena-index-vectors', 'data-testid': 'athena-index-vectors' });
  private _followTimer: number | null = null;
  private _info: IIndexInfo | null = null;
  private _reindexing = false;
  private _badge: HTMLButtonElement;
  private _reindex: HTMLButtonElement;
  private _progress = h('progress', { class: 'athena-reindex-progress', max: '1' });
  private _message = h('div', {
    class: 'athena-index-message',
    role: 'status',
    'data-testid': 'athena-index-message'
  });
  /** What the last reindex ended with ("Reindex done: …"): kept until the next one starts. */
  private _result = '';
  private _warnings = h('div', { class: 'athena-warnings', 'data-testid': 'athena-warnings' });

  constructor(private _onInfo: (info: IIndexInfo) => void) {
    this._badge = button('', () => void this._toggleWarnings(), {
      class: 'athena-warnings-badge',
      'data-testid': 'athena-warnings-badge',
      'aria-expanded': 'false'
    });
    this._badge.hidden = true;
    this._reindex = button('Reindex', () => void this.reindex(), {
      class: 'athena-reindex',
      'aria-label': 'Reindex the folder'
    });
    this._progress.hidden = true;
    this._warnings.hidden = true;
    window.setInterval(() => this._showSummary(), TICK_MS);
    this.node = h(
      'section',
      { class: 'athena-index-status', 'aria-label': 'Index status' },
      h('div', { class: 'athena-index-row' }, this._summary, this._badge, this._reindex),
      this._vectors,
      this._progress,
      this._message,
      this._warnings
    );
  }

  async refresh(): Promise<void> {
    try {
      const info = await api.getInfo();
      const index = info.index;
      this._info = info;
      this._showSummary();
      this._badge.hidden = !index.warnings;
      this._badge.textContent = `\u26a0 ${index.warnings}`;
      this._badge.setAttribute('aria-label', `${index.warnings} files with warnings: show them`);
      this._showVectors(index.vectors);
      if (!this._reindexing) {
        this._message.textContent = this._result;
      }
      this._onInfo(info);
      this._follow(isRunning(index.vectors) || Boolean(index.run), Boolean(info.live?.watching));
    } catch (err) {
      this._info = null;
      this._summary.textContent = 'Index unavailable';
      this._message.textContent = (err as Error).message;
    }
  }

  /** "12 files · 340 chunks · updated 3 s ago" (the exact time in the tooltip). */
  private _showSummary(): void {
    const index = this._info?.index;
    if (!index) {
      return;
    }
    const when = index.updated_at ? updatedAgo(index.updated_at) : `indexed ${formatWhen(index.last_indexed)}`;
    // Each part unbroken ("updated 1 min 54 s ago" never leaves "ago" on a line of its
    // own); a narrow sidebar wraps between the parts instead.
    const parts = [`${index.files} files`, `${index.chunks} chunks`, when];
    this._summary.replaceChildren(
      ...parts.flatMap((part, i) => [
        i ? ' \u00b7 ' : '',
        h('span', { class: 'athena-index-part', 'data-testid': 'athena-index-part' }, part)
      ])
    );
    this._summary.title = `last indexed ${formatWhen(index.last_indexed)}`;
  }

  private _showVectors(vectors: IVectorState | null | undefined): void {
    this._vectors.textContent = vectorsLine(vectors);
    this._vectors.hidden = !this._vectors.textContent;
  }

  /** While a run changes the index, refresh every FOLLOW_MS (the reindex loop polls on its
   * own); while the live index follows edits, every LIVE_MS. */
  private _follow(running: boolean, watching: boolean): void {
    if (!(running || watching) || this._reindexing || this._followTimer !== null) {
      return;
    }
    this._followTimer = window.setTimeout(() => {
      this._followTimer = null;
      void this.refresh();
    }, running ? FOLLOW_MS : LIVE_MS);
  }

  /** Start a reindex (or follow the one running) and poll until it finishes. */
  async reindex(): Promise<void> {
    this._reindex.disabled = true;
    this._progress.hidden = false;
    this._progress.removeAttribute('value'); // indeterminate until the first counts
    this._reindexing = true;
    this._result = '';
    this.node.dataset.reindex = 'running';
    this._message.textContent = 'Reindexing: starting\u2026';
    let message = '';
    let state = 'failed';
    try {
      let job = await api.startReindex();
      if (!job.id && job.error) {
        message = job.error; // another process's run: the strip follows it after refresh()
      } else {
        while (job.state === 'running') {
          this._showProgress(job);
          await new Promise(resolve => setTimeout(resolve, POLL_MS));
          job = await api.getReindex();
        }
        message = finishedText(job);
        state = job.state;
      }
    } catch (err) {
      message = `Reindex failed: ${(err as Error).message}`;
    } finally {
      this._reindex.disabled = false;
      this._progress.hidden = true;
      this._reindexing = false;
      this._result = message;
      this._message.textContent = message;
      this.node.dataset.reindex = state;
      await this.refresh();
    }
  }

  private _showProgress(job: IReindexJob): void {
    const p = job.progress;
    const vectors = p?.vectors;
    const embedding = vectors && (p?.phase === 'embed' || p?.phase === 'save');
    const total = (embedding ? vectors.total : p?.total) || 0;
    if (total) {
      this._progress.max = total;
      this._progress.value = (embedding ? vectors.done : p?.done) ?? 0;
    } else {
      this._progress.removeAttribute('value');
    }
    this._showVectors(vectors);
    this._message.textContent = `Reindexing: ${jobProgressText(job)}`;
  }

  private async _toggleWarnings(): Promise<void> {
    const open = this._warnings.hidden;
    this._badge.setAttribute('aria-expanded', String(open));
    this._warnings.hidden = !open;
    if (!open) {
      return;
    }
    this._warnings.replaceChildren(h('p', {}, 'Loading\u2026'));
    try {
      const status = await api.getStatus();
      const failed = new Set(status.failed.map(item => item.path));
      const items = [...status.files, ...(status.skipped ?? [])].filter(
        item => item.warnings?.length || failed.has(item.path)
      );
      this._warnings.replaceChildren(
        h('ul', {}, ...items.map(item => fileWarnings(item, failed.has(item.path))))
      );
    } catch (err) {
      this._warnings.replaceChildren(h('p', { class: 'athena-error' }, (err as Error).message));
    }
  }
}

function finishedText(job: IReindexJob): string {
  if (job.state === 'failed') {
    return `Reindex failed: ${job.error ?? describeSummary(job.summary)}`;
  }
  if (job.state === 'stopped') {
    return 'Reindex stopped; what it embedded is saved. Reindex again to finish.';
  }
  return jobDoneText(job);
}

function describeSummary(value: unknown): string {
  if (value == null) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  return JSON.stringify(value);
}
