/**
 * Index status strip: files, chunks, last indexed, a warnings badge that opens the
 * per-file list, and a reindex button that shows the job's progress until it ends.
 */
import * as api from '../api';
import { IFileWarnings, IIndexInfo, IReindexJob } from '../types';
import { button, h } from './dom';

const POLL_MS = 1000;

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

function progressText(job: IReindexJob): string {
  const p = job.progress;
  return p ? `${p.phase} ${p.done}/${p.total}` : job.state;
}

export class IndexStatusView {
  readonly node: HTMLElement;
  private _summary = h('span', { class: 'athena-index-summary', 'data-testid': 'athena-index-summary' });
  private _badge: HTMLButtonElement;
  private _reindex: HTMLButtonElement;
  private _progress = h('progress', { class: 'athena-reindex-progress', max: '1' });
  private _message = h('div', { class: 'athena-index-message', role: 'status' });
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
    this.node = h(
      'section',
      { class: 'athena-index-status', 'aria-label': 'Index status' },
      h('div', { class: 'athena-index-row' }, this._summary, this._badge, this._reindex),
      this._progress,
      this._message,
      this._warnings
    );
  }

  async refresh(): Promise<void> {
    try {
      const info = await api.getInfo();
      const index = info.index;
      this._summary.textContent = `${index.files} files \u00b7 ${index.chunks} chunks \u00b7 indexed ${formatWhen(index.last_indexed)}`;
      this._badge.hidden = !index.warnings;
      this._badge.textContent = `\u26a0 ${index.warnings}`;
      this._badge.setAttribute('aria-label', `${index.warnings} files with warnings: show them`);
      this._message.textContent = '';
      this._onInfo(info);
    } catch (err) {
      this._summary.textContent = 'Index unavailable';
      this._message.textContent = (err as Error).message;
    }
  }

  /** Start a reindex (or follow the one running) and poll until it finishes. */
  async reindex(): Promise<void> {
    this._reindex.disabled = true;
    this._progress.hidden = false;
    try {
      let job = await api.startReindex();
      while (job.state === 'running') {
        this._showProgress(job);
        await new Promise(resolve => setTimeout(resolve, POLL_MS));
        job = await api.getReindex();
      }
      this._message.textContent =
        job.state === 'failed' ? `Reindex failed: ${describeSummary(job.summary)}` : 'Reindex done.';
    } catch (err) {
      this._message.textContent = `Reindex failed: ${(err as Error).message}`;
    } finally {
      this._reindex.disabled = false;
      this._progress.hidden = true;
      await this.refresh();
    }
  }

  private _showProgress(job: IReindexJob): void {
    const p = job.progress;
    this._progress.max = p?.total || 1;
    this._progress.value = p?.done ?? 0;
    this._message.textContent = `Reindexing: ${progressText(job)}`;
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

function describeSummary(value: unknown): string {
  if (value == null) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  return JSON.stringify(value);
}
