/**
 * The index status line: files, chunks, when the index last changed, vectors, the
 * answering mode. Re-read every REFRESH_MS (the live index changes it on saves).
 */
import { h } from '../core/dom';
import { formatCount, updatedAgo, vectorsLine } from '../progressText';
import { answererLabel } from '../core/status';
import { IIndexInfo } from '../types';
import { getInfo } from './api';

const REFRESH_MS = 10_000;

export class StatusLine {
  readonly node = h('p', { class: 'status', role: 'status', 'data-testid': 'index-status' }, 'Reading the index\u2026');
  private _info: IIndexInfo | null = null;
  /** Told each info read (the page offers its example questions). */
  onInfo: (info: IIndexInfo) => void = () => undefined;

  start(): void {
    void this.refresh();
    window.setInterval(() => void this.refresh(), REFRESH_MS);
  }

  async refresh(): Promise<void> {
    try {
      this._info = await getInfo();
      this._show();
      this.onInfo(this._info);
    } catch (err) {
      this.node.textContent = (err as Error).message;
      this.node.classList.add('error');
    }
  }

  private _show(): void {
    const info = this._info;
    if (!info) {
      return;
    }
    this.node.classList.remove('error');
    const index = info.index;
    const parts = [`${formatCount(index.files)} files`, `${formatCount(index.chunks)} chunks`];
    if (typeof index.updated_at === 'number') {
      parts.push(updatedAgo(index.updated_at));
    }
    const vectors = vectorsLine(index.vectors);
    if (vectors) {
      parts.push(vectors);
    }
    parts.push(info.mode === 'extractive' ? 'extractive answers' : answererLabel(info));
    this.node.replaceChildren(h('span', { class: 'root', title: info.root }, info.root.split('/').pop() || info.root), ` \u00b7 ${parts.join(' \u00b7 ')}`);
  }
}
