/**
 * The question bubble, the answer's frame and the empty chat, shared by the sidebar and
 * the chat page: a
 * long question shows its first lines and expands on click; the bubble names the
 * filters it was asked with; the empty chat offers questions made from the index's
 * section headings (GET /athena/info `examples`). Class names are prefixed by the
 * caller (`athena-` in Lab, none on the page), so each front end styles them in scope.
 */
import { IChatFilters } from '../types';
import { button, h } from './dom';

/** Longer than this (characters or lines), a question starts collapsed. */
export const COLLAPSE_CHARS = 280;
export const COLLAPSE_LINES = 4;

/** "kind: pdf", "under: docs/", "3 papers" — the filters a question was asked with, for its bubble. */
export function filterChips(filters: IChatFilters | undefined): string[] {
  const chips: string[] = [];
  if (filters?.kind) {
    chips.push(`kind: ${filters.kind}`);
  }
  if (filters?.path_prefix) {
    chips.push(`under: ${filters.path_prefix}`);
  }
  for (const key of ['collection', 'tag', 'author', 'year'] as const) {
    if (filters?.[key]) {
      chips.push(`${key}: ${filters[key]}`);
    }
  }
  if (filters?.papers?.length) {
    chips.push(`${filters.papers.length} paper${filters.papers.length === 1 ? '' : 's'}`);
  }
  return chips;
}

export function isLongQuestion(question: string): boolean {
  return question.length > COLLAPSE_CHARS || question.split('\n').length > COLLAPSE_LINES;
}

/** The user's question as a bubble: its text (collapsed when long), then its filters. */
export function questionBubble(
  question: string,
  filters: IChatFilters | undefined,
  prefix: string,
  testid: string
): HTMLElement {
  const text = h('div', { class: `${prefix}question-text` }, question);
  const bubble = h('div', { class: `${prefix}user-message`, 'data-testid': testid }, text);
  const chips = filterChips(filters);
  if (chips.length) {
    bubble.append(
      h(
        'div',
        { class: `${prefix}question-filters`, 'data-testid': 'question-filters', 'aria-label': 'Asked with filters' },
        ...chips.map(chip => h('span', { class: `${prefix}filter-chip` }, chip))
      )
    );
  }
  if (isLongQuestion(question)) {
    bubble.classList.add(`${prefix}collapsed`);
    const toggle = button('Show all', () => {
      const collapsed = bubble.classList.toggle(`${prefix}collapsed`);
      toggle.textContent = collapsed ? 'Show all' : 'Show less';
      toggle.setAttribute('aria-expanded', String(!collapsed));
    }, { class: `${prefix}question-toggle`, 'aria-expanded': 'false', 'data-testid': 'question-toggle' });
    text.addEventListener('click', () => {
      if (bubble.classList.contains(`${prefix}collapsed`)) {
        toggle.click();
      }
    });
    bubble.insertBefore(toggle, text.nextSibling);
  }
  return bubble;
}

/** The empty chat: what to do, and example questions that ask themselves when clicked. */
export function emptyState(
  intro: string,
  examples: string[],
  onAsk: (question: string) => void,
  prefix: string
): HTMLElement {
  const node = h('div', { class: `${prefix}empty`, 'data-testid': 'empty-state' }, h('p', {}, intro));
  if (examples.length) {
    node.append(
      h('p', { class: `${prefix}examples-title` }, 'Try one of these, from your documents\u2019 headings:'),
      h(
        'ul',
        { class: `${prefix}examples`, 'aria-label': 'Example questions' },
        ...examples.map(example =>
          h('li', {}, button(example, () => onAsk(example), { class: `${prefix}example`, 'data-testid': 'example-question' }))
        )
      )
    );
  }
  return node;
}

/**
 * An answer's frame: the header naming how it was answered (`mode`), then `parts` in
 * order (body, status, notes, sources, trace, actions). It starts streaming; the view
 * drops the streaming class when the answer is drawn whole.
 */
export function answerFrame(
  prefix: string,
  attrs: Record<string, string>,
  mode: HTMLElement,
  ...parts: HTMLElement[]
): HTMLElement {
  return h(
    'article',
    { class: `${prefix}answer ${prefix}streaming`, 'data-testid': `${prefix}answer`, ...attrs },
    h('header', { class: `${prefix}answer-header` }, 'Athena ', mode),
    ...parts
  );
}

/**
 * The note under an answer its reader cut short (Stop, or a reload mid-answer, stored as
 * `interrupted`): the partial text stays, this says so neutrally — it is not an error —
 * and offers to ask again. The sidebar and the chat page show the same note.
 */
export function interruptedNote(prefix: string, onRetry: () => void): HTMLElement {
  return h(
    'p',
    { class: `${prefix}interrupted-note`, 'data-testid': `${prefix}interrupted` },
    'Stopped before the answer was complete. ',
    button('Retry', onRetry, {
      class: `${prefix}retry`,
      'data-testid': `${prefix}retry`,
      'aria-label': 'Ask this question again'
    })
  );
}
