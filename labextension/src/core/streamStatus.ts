/**
 * The status line under a streaming answer, drawn from the folded status (./status.ts):
 * its words ("loading the model…", "reading 5 passages (≈1,150 tokens)…") and, while a
 * local model reads its prompt, a bar with the tokens read and the time left (llama.cpp's
 * own count, the `progress` event). The sidebar and the chat page (and with it the
 * drop-in) draw it with this one function; only the class prefix differs.
 */
import { h } from './dom';
import { IStreamStatus, progressDetail } from './status';

/** Show `status` in `line` (hidden when null); `prefix` scopes the classes ('athena-' in Lab). */
export function drawStatus(line: HTMLElement, status: IStreamStatus | null, prefix: string): void {
  line.hidden = status === null;
  if (status === null) {
    line.replaceChildren();
    delete line.dataset.phase;
    return;
  }
  line.dataset.phase = status.phase;
  const parts: HTMLElement[] = [h('span', { class: `${prefix}status-text` }, status.text)];
  const progress = status.progress;
  if (progress && progress.total > 0) {
    const bar = h('progress', {
      class: `${prefix}read-progress`,
      max: String(progress.total),
      value: String(Math.min(progress.done, progress.total)),
      'aria-label': 'Tokens of the passages read by the model',
      'data-testid': `${prefix}read-progress`
    });
    parts.push(bar, h('span', { class: `${prefix}status-detail` }, progressDetail(progress)));
  }
  line.replaceChildren(...parts);
}
