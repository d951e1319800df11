/**
 * The chat page: header (title, index status, New, History), the conversation with the
 * composer (filters included), the history drawer and the source viewer. Answers are
 * folded from the event stream by the core (core/answer.ts), like the sidebar's.
 */
import { storedAnswer } from '../core/answer';
import { ChatTurns } from '../core/turns';
import { awaitsAnswer, ConversationLoader, OpenedConversation } from '../core/conversation';
import { button, h } from '../core/dom';
import { emptyState, questionBubble } from '../core/question';
import { Composer } from '../components/composer';
import { BottomFollower } from '../core/follow';
import { ConversationList } from '../components/conversationList';
import { PapersView, papersView } from '../components/papersView';
import { IChatFilters, IConversation, IStoredMessage } from '../types';
import * as api from './api';
import { PageAnswer } from './answerView';
import { StatusLine } from './status';
import { SourceViewer } from './viewer';

const REMEMBER = 'athena-page:conversation';

export class ChatPage {
  readonly node: HTMLElement;
  private _conversationId: string | null = null;
  private _messages = h('div', { class: 'messages', role: 'log', 'aria-label': 'Conversation', 'data-testid': 'messages' });
  /** Keeps the newest text in view, unless the reader scrolled up to read. */
  private _follower = new BottomFollower(this._messages);
  private _status = new StatusLine();
  private _viewer = new SourceViewer();
  private _history: ConversationList;
  private _historyToggle: HTMLButtonElement;
  private _papers: PapersView;
  private _papersToggle: HTMLButtonElement;
  private _composer: Composer;
  private _turns: ChatTurns;
  private _examples: string[] = [];
  /** The last stored question shown, for Retry under its interrupted answer. */
  private _lastStored: { question: string; filters: IChatFilters } = { question: '', filters: {} };
  /** Opens stored conversations; what the reader chose last wins (core/conversation.ts). */
  private _loader = new ConversationLoader({ get: api.getConversation });

  constructor() {
    this._turns = new ChatTurns({
      stream: api.streamChat,
      conversation: () => this._conversationId,
      onConversation: id => this._setConversation(id),
      onBusy: busy => (this._composer.busy = busy)
    });
    this._history = new ConversationList({
      onSwitch: id => void this.switchTo(id),
      onDelete: id => void this._delete(id),
      server: new URL('.', document.baseURI).href
    });
    this._composer = new Composer({
      onSend: question => void this.ask(question),
      onStop: () => this._turns.stop()
    });
    this._composer.input.placeholder = 'Ask about your documents (Enter to send, Shift+Enter for a new line)';
    this._historyToggle = button('History', () => void this._toggleHistory(), {
      class: 'history-toggle',
      'aria-expanded': 'false',
      'aria-controls': 'history'
    });
    this._history.node.id = 'history';
    this._history.node.classList.add('history');
    this._papers = papersView(
      api,
      this._composer,
      () => {
        void this._togglePapers(false);
        this._composer.input.focus();
      },
      citation => void this._viewer.open(citation, this._papersToggle)
    );
    this._papers.node.id = 'papers';
    this._papers.node.classList.add('papers-panel');
    this._papersToggle = button('Papers', () => void this._togglePapers(), {
      class: 'papers-toggle',
      'aria-expanded': 'false',
      'aria-controls': 'papers',
      'data-testid': 'papers-toggle'
    });
    this._status.onInfo = info => {
      if (info.limits) {
        this._composer.maxChars = info.limits.max_question_chars;
      }
      const examples = info.examples ?? [];
      if (examples.join('\n') !== this._examples.join('\n')) {
        this._examples = examples;
        this._showWelcome();
      }
    };
    this._showWelcome();
    this.node = h(
      'div',
      { class: 'app' },
      h(
        'header',
        { class: 'top' },
        h('h1', {}, 'Athena'),
        this._status.node,
        h(
          'nav',
          { class: 'top-actions', 'aria-label': 'Conversations' },
          button('New', () => void this.newConversation(), { class: 'new', 'aria-label': 'Start a new conversation' }),
          this._papersToggle,
          this._historyToggle
        )
      ),
      h(
        'div',
        { class: 'columns' },
        this._history.node,
        this._papers.node,
        h('main', { class: 'chat' }, this._messages, this._composer.node),
        this._viewer.node
      )
    );
  }

  async start(): Promise<void> {
    this._status.start();
    this._history.finishLeftDeletes();
    const remembered = window.localStorage.getItem(REMEMBER);
    if (remembered) {
      await this.switchTo(remembered);
    }
    this._composer.input.focus();
  }

  /** Ask `question` (with the composer's filters, or those it was first asked with: Retry). */
  async ask(question: string, filters: IChatFilters = this._composer.filters): Promise<void> {
    this._loader.moveOn(); // a conversation still loading must not replace this turn
    this._messages.querySelector('.empty')?.remove();
    this._messages.append(questionBubble(question, filters, '', 'question'));
    const view = this._addAnswer(() => void this.ask(question, filters));
    this._follower.follow(); // the reader asked: show the answer coming
    try {
      await this._turns.ask({ question, filters }, next => {
        view.update(next);
        this._follower.update();
      });
    } finally {
      if (this._history.open) {
        await this._refreshHistory();
      }
    }
  }

  async newConversation(): Promise<void> {
    this._loader.moveOn();
    this._turns.abandon();
    this._setConversation(null);
    this._messages.replaceChildren();
    this._showWelcome();
    this._composer.input.focus();
  }

  async switchTo(id: string): Promise<void> {
    let opened: OpenedConversation;
    try {
      opened = await this._loader.open(id);
    } catch (err) {
      this._messages.append(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
      return;
    }
    if (opened.kind === 'gone') {
      this._setConversation(null);
    } else if (opened.kind === 'open') {
      await this._show(opened.conversation);
      if (awaitsAnswer(opened.conversation)) {
        void this._showWhenAnswered(opened.conversation.id);
      }
    }
  }

  /** Left mid-answer (a reload while streaming): show the answer once the server stored it. */
  private async _showWhenAnswered(id: string): Promise<void> {
    const answered = await this._loader.answered(id);
    if (answered && this._conversationId === id) {
      await this._show(answered);
    }
  }

  private async _show(conversation: IConversation): Promise<void> {
    this._messages.replaceChildren();
    conversation.messages.forEach(message => this._showStored(message));
    this._follower.follow();
    this._setConversation(conversation.id);
    if (this._history.open) {
      await this._refreshHistory();
    }
  }

  private _addAnswer(onRetry: () => void): PageAnswer {
    const view = new PageAnswer((citation, trigger) => void this._viewer.open(citation, trigger), {
      trace: true,
      mode: true,
      onRetry
    });
    this._messages.append(view.node);
    return view;
  }

  private _showStored(message: IStoredMessage): void {
    if (message.role === 'user') {
      this._lastStored = { question: message.content, filters: message.filters ?? {} };
      this._messages.append(questionBubble(message.content, message.filters, '', 'question'));
    } else {
      const { question, filters } = this._lastStored;
      this._addAnswer(() => void this.ask(question, filters)).update(storedAnswer(message));
    }
  }

  /** The empty conversation: what to do, and questions made from the index's headings. */
  private _showWelcome(): void {
    const shown = this._messages.querySelector('.empty');
    if (this._messages.children.length > (shown ? 1 : 0)) {
      return;
    }
    const empty = emptyState(
      'Ask a question about the indexed folder. Answers cite their sources as [n]: select one to see the passage.',
      this._examples,
      question => void this.ask(question),
      ''
    );
    empty.classList.add('welcome');
    if (shown) {
      shown.replaceWith(empty);
    } else {
      this._messages.append(empty);
    }
  }

  private _setConversation(id: string | null): void {
    this._conversationId = id;
    this.node.dataset.conversationId = id ?? '';
    this._history.markCurrent(id); // the history marks the conversation shown, as in the sidebar
    if (id) {
      window.localStorage.setItem(REMEMBER, id);
    } else {
      window.localStorage.removeItem(REMEMBER);
    }
  }

  private async _delete(id: string): Promise<void> {
    try {
      await api.deleteConversation(id);
    } catch (err) {
      this._history.showError((err as Error).message);
      return;
    }
    if (id === this._conversationId) {
      await this.newConversation();
    }
    await this._refreshHistory();
  }

  /** The papers beside the chat (over it on a phone); "Ask about these" scopes the composer. */
  private async _togglePapers(open = !this._papers.open): Promise<void> {
    this._papers.open = open;
    this._papersToggle.setAttribute('aria-expanded', String(open));
    if (open) {
      await this._papers.refresh();
      this._papers.focus();
    } else if (document.activeElement && this._papers.node.contains(document.activeElement)) {
      this._papersToggle.focus();
    }
  }

  private async _toggleHistory(): Promise<void> {
    this._history.open = !this._history.open;
    this._historyToggle.setAttribute('aria-expanded', String(this._history.open));
    if (this._history.open) {
      await this._refreshHistory();
    }
  }

  private async _refreshHistory(): Promise<void> {
    try {
      this._history.show(await api.listConversations(), this._conversationId);
    } catch (err) {
      this._history.showError((err as Error).message);
    }
  }
}
