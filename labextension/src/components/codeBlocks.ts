/**
 * Code blocks in a rendered answer: each <pre> gets a Copy button (the code only, not the
 * answer around it), in a bar of its own above the code: laid over the code's corner it
 * hid the end of the first line, and whatever scrolled under it sideways. The background
 * and horizontal scroll are in style/base.css.
 */
import { flashCopied, h } from '../core/dom';

export function addCodeCopyButtons(host: HTMLElement): void {
  for (const pre of Array.from(host.querySelectorAll('pre'))) {
    const copy = h(
      'button',
      { type: 'button', class: 'athena-code-copy', 'aria-label': 'Copy this code', 'data-testid': 'athena-code-copy' },
      'Copy'
    );
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(pre.textContent ?? '');
        flashCopied(copy, 'Copy', true);
      } catch {
        flashCopied(copy, 'Copy', false);
      }
    });
    const block = h('div', { class: 'athena-code-block' });
    pre.replaceWith(block);
    block.append(h('div', { class: 'athena-code-head' }, copy), pre);
  }
}
