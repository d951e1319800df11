/**
 * Conversation history: the saved conversations, newest first, each switchable and
 * deletable; the current one is marked.
 */
import { IConversationSummary } from '../types';
import { button, h } from '../core/dom';

export interface IConversationListOptions {
  onSwitch: (id: string) => void;
  onDelete: (id: string) => void;
}

export class ConversationList {
  readonly node: HTMLElement;
  private _list = h('ul', { class: 'athena-conversation-items' });

  constructor(private _options: IConversationListOptions) {
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
    if (!conversations.length) {
      this._list.replaceChildren(h('li', {}, 'No saved conversations yet.'));
      return;
    }
    this._list.replaceChildren(...conversations.map(c => this._item(c, c.id === currentId)));
  }

  showError(message: string): void {
    this._list.replaceChildren(h('li', { class: 'athena-error' }, message));
  }

  private _item(conversation: IConversationSummary, current: boolean): HTMLElement {
    const title = conversation.title || 'Untitled';
    return h(
      'li',
      { class: current ? 'athena-conversation athena-current' : 'athena-conversation' },
      button(title, () => this._options.onSwitch(conversation.id), {
        class: 'athena-conversation-open',
        'aria-current': current ? 'true' : undefined,
        title: `${conversation.turns} turns, updated ${conversation.updated_at}`
      }),
      button('\u2715', () => this._options.onDelete(conversation.id), {
        class: 'athena-conversation-delete',
        'aria-label': `Delete conversation ${title}`
      })
    );
  }
}
