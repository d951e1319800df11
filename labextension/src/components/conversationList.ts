/**
 * Conversation history: the saved conversations, newest first, each with a title that
 * tells it apart and when it was last used ("today 10:42", "3 Nov"); the current one is
 * marked. Delete is undoable: the row turns into "Deleted · Undo" for UNDO_MS, and only
 * then is the conversation deleted on the server. Leaving the page ends the window, as
 * closing a mail client sends an undoable message: the deletes still waiting when the page
 * goes (`pagehide`) are remembered in localStorage, per server, and carried out when the
 * next page on that server starts (`finishLeftDeletes`). Nothing is written while the
 * window is open, so another tab starting meanwhile cannot take the undo away.
 */
import { IConversationSummary } from '../types';
import { button, h } from '../core/dom';
import { distinctTitles, whenLabel } from '../core/history';

/** How long a deleted conversation can be brought back. */
export const UNDO_MS = 6000;

/** The ids of deletes whose undo window was open when a page of this server went away. */
function leftDeletes(key: string): string[] {
  try {
    const ids = JSON.parse(window.localStorage.getItem(key) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return []; // storage blocked or the value mangled: nothing to finish
  }
}

function keepLeftDeletes(key: string, ids: string[]): void {
  try {
    if (ids.length) {
      window.localStorage.setItem(key, JSON.stringify(ids));
    } else {
      window.localStorage.removeItem(key);
    }
  } catch {
    // storage blocked or full: the delete is lost with the page, as before it was kept
  }
}

export interface IConversationListOptions {
  onSwitch: (id: string) => void;
  /** The row was deleted in the list: the panel leaves the conversation if it shows it. */
  onDeleting?: (id: string) => void;
  /** The undo window passed: delete it on the server. */
  onDelete: (id: string) => void;
  /** Undo: the conversation is back. */
  onRestore?: (id: string) => void;
  /** Where focus goes when the list has nothing focusable left (default: the list). */
  fallbackFocus?: () => void;
  /** The server these conversations live on (its base URL): left deletes are kept per server. */
  server?: string;
}

interface IPending {
  timer: number;
  title: string;
}

export class ConversationList {
  readonly node: HTMLElement;
  private _list = h('ul', { class: 'athena-conversation-items' });
  private _pending = new Map<string, IPending>();
  private _conversations: IConversationSummary[] = [];
  private _currentId: string | null = null;

  constructor(private _options: IConversationListOptions) {
    window.addEventListener('pagehide', () => this._leave());
    this.node = h(
      'section',
      { class: 'athena-conversations', 'aria-label': 'Conversations', 'data-testid': 'athena-conversations' },
      this._list
    );
    this.node.hidden = true;
  }

  get open(): boolean {
    return !this.node.hidden;
  }

  set open(value: boolean) {
    this.node.hidden = !value;
  }

  show(conversations: IConversationSummary[], currentId: string | null): void {
    this._conversations = conversations;
    this._currentId = currentId;
    this._render();
  }

  /**
   * The conversation the chat shows now: its row is the marked one. Called whenever the
   * chat switches (a row clicked, New, a first answer naming its conversation), so the mark
   * never stays on the conversation shown before while the list waits for a refresh.
   */
  markCurrent(id: string | null): void {
    this._currentId = id;
    for (const row of Array.from(this._list.querySelectorAll<HTMLElement>('li.athena-conversation'))) {
      const current = id !== null && row.dataset.id === id && !row.classList.contains('athena-conversation-deleted');
      row.classList.toggle('athena-current', current);
      const open = row.querySelector<HTMLElement>('.athena-conversation-open');
      if (current) {
        open?.setAttribute('aria-current', 'true');
      } else {
        open?.removeAttribute('aria-current');
      }
    }
  }

  showError(message: string): void {
    this._list.replaceChildren(h('li', { class: 'athena-error' }, message));
  }

  /** Carry out the deletes whose undo window a reload or a closed tab cut short. */
  finishLeftDeletes(): void {
    const ids = leftDeletes(this._leftKey);
    keepLeftDeletes(this._leftKey, []);
    ids.forEach(id => this._options.onDelete(id));
  }

  private get _leftKey(): string {
    return `athena-lab:pending-deletes:${this._options.server ?? ''}`;
  }

  /** The page is going: the deletes still in their undo window are due. */
  private _leave(): void {
    if (this._pending.size) {
      const waiting = [...this._pending.keys()];
      keepLeftDeletes(this._leftKey, [...leftDeletes(this._leftKey).filter(id => !waiting.includes(id)), ...waiting]);
    }
  }

  private _render(): void {
    const focused = this._focusedKey();
    const shown = this._conversations;
    if (!shown.length) {
      this._list.replaceChildren(h('li', { class: 'athena-conversation-empty' }, 'No saved conversations yet.'));
      return;
    }
    const titles = distinctTitles(shown.map(c => c.title));
    this._list.replaceChildren(
      ...shown.map((c, i) =>
        this._pending.has(c.id) ? this._undoItem(c.id, titles[i]) : this._item(c, titles[i], c.id === this._currentId)
      )
    );
    if (focused) {
      this._list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
    }
  }

  private _focusedKey(): string | null {
    const active = document.activeElement as HTMLElement | null;
    return active && this._list.contains(active) ? active.dataset.focusKey ?? null : null;
  }

  private _item(conversation: IConversationSummary, title: string, current: boolean): HTMLElement {
    const when = whenLabel(conversation.updated_at);
    const turns = `${conversation.turns} question${conversation.turns === 1 ? '' : 's'}`;
    const open = button('', () => this._options.onSwitch(conversation.id), {
      class: 'athena-conversation-open',
      'aria-current': current ? 'true' : undefined,
      'data-focus-key': `open:${conversation.id}`,
      title: `${title}\n${turns}, last used ${new Date(conversation.updated_at).toLocaleString()}`
    });
    // A number that tells repeated titles apart stays in view when the title is cut short.
    const [, base, number] = /^(.*?)( \(\d+\))?$/s.exec(title) ?? [title, title, ''];
    open.append(
      h(
        'span',
        { class: 'athena-conversation-title', 'data-testid': 'athena-conversation-title' },
        h('span', { class: 'athena-conversation-base' }, base),
        number ? h('span', { class: 'athena-conversation-number' }, number) : null
      ),
      h(
        'span',
        { class: 'athena-conversation-meta', 'data-testid': 'athena-conversation-when' },
        when ? `${when} \u00b7 ${turns}` : turns
      )
    );
    return h(
      'li',
      { class: current ? 'athena-conversation athena-current' : 'athena-conversation', 'data-id': conversation.id },
      open,
      button('\u2715', () => this._delete(conversation.id, title), {
        class: 'athena-conversation-delete',
        'data-focus-key': `delete:${conversation.id}`,
        'aria-label': `Delete conversation ${title}`,
        title: 'Delete (undo for a few seconds)'
      })
    );
  }

  private _undoItem(id: string, title: string): HTMLElement {
    return h(
      'li',
      { class: 'athena-conversation athena-conversation-deleted', 'data-id': id, role: 'status' },
      h('span', { class: 'athena-conversation-title' }, `Deleted \u201c${title}\u201d`),
      button('Undo', () => this._undo(id), {
        class: 'athena-conversation-undo',
        'data-testid': 'athena-conversation-undo',
        'data-focus-key': `undo:${id}`,
        'aria-label': `Undo deleting conversation ${title}`
      })
    );
  }

  private _delete(id: string, title: string): void {
    const timer = window.setTimeout(() => this._expire(id), UNDO_MS);
    this._pending.set(id, { timer, title });
    this._render();
    this._list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(`undo:${id}`)}"]`)?.focus();
    this._options.onDeleting?.(id);
  }

  private _undo(id: string): void {
    const pending = this._pending.get(id);
    if (!pending) {
      return;
    }
    window.clearTimeout(pending.timer);
    this._pending.delete(id);
    this._render();
    this._list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(`open:${id}`)}"]`)?.focus();
    this._options.onRestore?.(id);
  }

  private _expire(id: string): void {
    const row = this._list.querySelector<HTMLElement>(`li[data-id="${CSS.escape(id)}"]`);
    const hadFocus = row !== null && row.contains(document.activeElement);
    const next = row?.nextElementSibling ?? row?.previousElementSibling;
    this._pending.delete(id);
    this._conversations = this._conversations.filter(c => c.id !== id);
    this._render();
    if (hadFocus) {
      // The focused Undo button is gone: keep focus in the list, never on <body>.
      const key = (next?.querySelector('button') as HTMLElement | null)?.dataset.focusKey;
      const target = key ? this._list.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`) : null;
      if (target) {
        target.focus();
      } else if (this._options.fallbackFocus) {
        this._options.fallbackFocus();
      } else {
        this.node.tabIndex = -1;
        this.node.focus();
      }
    }
    this._options.onDelete(id);
  }
}
