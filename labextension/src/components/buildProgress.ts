/**
 * A background build's progress under the answer that waited on it. A question in another
 * language starts the multilingual vectors' build on the server (its `done` event says
 * `building: "multilingual"`); the answer says they are being built, and this line follows
 * that build (GET /athena/reindex, the one job slot) until it ends, so the reader sees it
 * move where they asked, and knows when asking again will find the answer.
 */
import { jobDoneText, jobProgressText } from '../progressText';
import { IReindexJob } from '../types';
import { h } from '../core/dom';

const POLL_MS = 1000;

/** Follow the running job into a status line appended to `parent`; resolves when it ends. */
export async function followBuild(parent: HTMLElement, getJob: () => Promise<IReindexJob>): Promise<void> {
  const bar = h('progress', { class: 'athena-build-bar' });
  const text = h('span', {}, 'Building the multilingual vectors\u2026');
  const line = h(
    'div',
    { class: 'athena-build-progress', 'data-testid': 'athena-build-progress', role: 'status' },
    text,
    bar
  );
  parent.append(line);
  let job: IReindexJob;
  try {
    job = await getJob();
    while (job.state === 'running') {
      const p = job.progress;
      const vectors = p?.vectors;
      const embedding = vectors && (p?.phase === 'embed' || p?.phase === 'save');
      const total = (embedding ? vectors.total : p?.total) || 0;
      if (total) {
        bar.max = total;
        bar.value = (embedding ? vectors.done : p?.done) ?? 0;
      }
      text.textContent = `Building the multilingual vectors in the background: ${jobProgressText(job)}`;
      await new Promise(resolve => setTimeout(resolve, POLL_MS));
      job = await getJob();
    }
  } catch (err) {
    text.textContent = `Cannot follow the multilingual build: ${(err as Error).message}`;
    bar.remove();
    return;
  }
  bar.remove();
  line.dataset.state = job.state;
  text.textContent =
    job.state === 'done'
      ? 'The multilingual vectors are built: ask the question again to search with them.'
      : `The multilingual build ended (${job.state}): ${job.error ?? jobDoneText(job)}`;
}
