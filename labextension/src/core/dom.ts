/**
 * A tiny element builder: the panel is plain DOM (no React), and this keeps each
 * component's markup readable. Text always goes through textContent, never innerHTML.
 */

type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) {
      element.setAttribute(name, '');
    } else if (typeof value === 'string') {
      element.setAttribute(name, value);
    }
  }
  for (const child of children) {
    if (child) {
      element.append(child);
    }
  }
  return element;
}

/** A real <button> (keyboard and screen-reader friendly) with a click handler. */
export function button(
  label: string,
  onClick: (event: MouseEvent) => void,
  attrs: Attrs = {}
): HTMLButtonElement {
  const element = h('button', { type: 'button', ...attrs }, label);
  element.addEventListener('click', onClick);
  return element;
}

/** How long "Copied" stays on a copy button before it reads `label` again. */
export const COPIED_MS = 2000;

/** Show "Copied" (or the failure) on `button` for a moment. */
export function flashCopied(button: HTMLButtonElement, label: string, ok: boolean): void {
  button.textContent = ok ? 'Copied' : 'Copy failed';
  window.setTimeout(() => (button.textContent = label), COPIED_MS);
}
