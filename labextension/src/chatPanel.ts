/**
 * The sidebar chat: wires the components to the API and keeps the current
 * conversation. Rendering details live in the components; requests live in api.ts.
 */
import { JupyterFrontEnd } from '@jupyterlab/application';
import { Clipboard, showErrorMessage } from '@jupyterlab/apputils';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { INotebookTracker, NotebookActions } from '@jupyterlab/notebook';
import { MarkdownCell } from '@jupyterlab/cells';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { Widget } from '@lumino/widgets';

import * as api from './api';
import { answerAsMarkdown, normalisePrefix } from './core/citations';
import { button, h } from './core/dom';
import { emptyAnswer, foldEvent, IAnswerState, storedAnswer } from './core/answer';
import { emptyState, questionBubble } from './core/question';
import { AnswerView } from './components/answerView';
import { Composer } from './components/composer';
import { ConversationList } from './components/conversationList';
import { IndexStatusView } from './components/indexStatus';
import { openCitation } from './open';
import { BottomFollower } from './scrollFollow';

/** The mode the server stores for an answer its client cut short (agent/loop.py). */
const INTERRUPTED = 'interrupted';
import { ConversationMemory } from './state';
import { ChatEvent, IChatFilters, ICitation, IIndexInfo, IStoredMessage } from './types';

export interface IChatSettings {
  provider: string;
  model: string;
  topK: number;
  defaultFilters: IChatFilters;
}

export interface IChatPanelOptions {
  app: JupyterFrontEnd;
  docManager: IDocumentManager;
  rendermime: IRenderMimeRegistry;
  notebooks: INotebookTracker | null;
  memory: ConversationMemory;
  settings: () => IChatSettings;
}

export class ChatPanel extends Widget {
  private _conversationId: string | null = null;
  private _labPathPrefix: string | null = '';
  private _answers: AnswerView[] = [];
  private _abort: AbortController | null = null;
  private _messages = h('div', {
    class: 'athena-messages',
    role: 'log',
    'aria-label': 'Conversation',
    'data-testid': 'athena-messages'
  });
  private _mode = h('span', { class: 'athena-server-mode', 'data-testid': 'athena-server-mode' });
  private _historyToggle: HTMLButtonElement;
  private _status: IndexStatusView;
  private _history: ConversationList;
  private _composer: Composer;
  private _follower = new BottomFollower(this._messages);
  private _lastStoredQuestion = '';
  private _examples: string[] = [];
  /** Bumped by each switch and New: a conversation that loads after a later choice is dropped. */
  private _choice = 0;

  constructor(private _options: IChatPanelOptions) {
    super();
    this.addClass('athena-chat');
    this.node.dataset.testid = 'athena-chat';
    this._status = new IndexStatusView(info => this._onInfo(info));
    this._history = new ConversationList({
      onSwitch: id => void this.switchTo(id),
      onDelete: id => void this.deleteConversation(id)
    });
    this._composer = new Composer({
      onSend: question => void this.ask(question),
      onStop: () => this._abort?.abort()
    });
    this._historyToggle = button('History', () => void this.toggleHistory(), {
      class: 'athena-history-toggle',
      'aria-expanded': 'false',
      'aria-label': 'Show conversation history'
    });
    const header = h(
      'header',
      { class: 'athena-chat-header' },
      h('h2', {}, 'Athena'),
      this._mode,
      button('New', () => void this.newConversation(), {
        class: 'athena-new',
        'aria-label': 'Start a new conversation'
      }),
      this._historyToggle
    );
    this.node.append(header, this._status.node, this._history.node, this._messages, this._composer.node);
    this._showEmptyState();
  }

  get conversationId(): string | null {
    return this._conversationId;
  }

  get lastAnswer(): AnswerView | null {
    return this._answers[this._answers.length - 1] ?? null;
  }

  focusInput(): void {
    this._composer.input.focus();
  }

  applySettings(): void {
    this._composer.setDefaultFilters(this._options.settings().defaultFilters);
  }

  /** Load index status and the remembered conversation. */
  async start(): Promise<void> {
    this.applySettings();
    await this._status.refresh();
    const remembered = await this._options.memory.load();
    if (remembered) {
      await this.switchTo(remembered);
    }
  }

  reindex(): Promise<void> {
    return this._status.reindex();
  }

  async ask(question: string): Promise<void> {
    this._messages.querySelector('.athena-empty')?.remove();
    const filters = this._composer.filters;
    this._messages.append(questionBubble(question, filters, 'athena-', 'athena-user-message'));
    const answer = this._addAnswer();
    this._follower.follow();
    let state = emptyAnswer();
    answer.setStatus(state.status);
    const settings = this._options.settings();
    this._abort = new AbortController();
    this._composer.busy = true;
    try {
      await api.streamChat(
        {
          question,
          conversationId: this._conversationId,
          filters,
          provider: settings.provider,
          model: settings.model,
          topK: settings.topK
        },
        event => {
          state = this._onEvent(answer, state, event);
        },
        this._abort.signal
      );
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        answer.interrupt(() => void this.ask(question));
      } else {
        answer.fail((err as Error).message);
      }
      this._follower.update();
    } finally {
      this._abort = null;
      this._composer.busy = false;
      if (this._history.open) {
        await this._refreshHistory();
      }
    }
  }

  async newConversation(): Promise<void> {
    this._choice++;
    this._abort?.abort();
    await this._setConversation(null);
    this._clearMessages();
    this.focusInput();
  }

  async switchTo(id: string): Promise<void> {
    const choice = ++this._choice;
    try {
      const conversation = await api.getConversation(id);
      if (choice !== this._choice) {
        return; // New (or another conversation) was chosen while this one loaded
      }
      this._clearMessages();
      conversation.messages.forEach(message => this._showStored(message));
      await this._setConversation(conversation.id);
      await Promise.all(this._answers.map(a => a.rendered()));
      this._follower.follow();
    } catch (err) {
      if ((err as api.AthenaError).status === 404) {
        await this._setConversation(null);
      } else {
        await showErrorMessage('Cannot load the conversation', (err as Error).message);
      }
    }
  }

  async deleteConversation(id: string): Promise<void> {
    try {
      await api.deleteConversation(id);
    } catch (err) {
      await showErrorMessage('Cannot delete the conversation', (err as Error).message);
    }
    if (id === this._conversationId) {
      await this.newConversation();
    }
    await this._refreshHistory();
  }

  async toggleHistory(): Promise<void> {
    this._history.open = !this._history.open;
    this._historyToggle.setAttribute('aria-expanded', String(this._history.open));
    if (this._history.open) {
      await this._refreshHistory();
    }
  }

  copy(answer: AnswerView): void {
    Clipboard.copyToSystem(answerAsMarkdown(answer.text, answer.citations, this._prefix(), ''));
  }

  /** Insert `answer` with linked sources as a rendered Markdown cell below the active cell. */
  async insert(answer: AnswerView): Promise<void> {
    const panel = this._options.notebooks?.currentWidget;
    if (!panel) {
      await showErrorMessage('No notebook', 'Open or select a notebook to insert the answer into.');
      return;
    }
    const notebook = panel.content;
    NotebookActions.insertBelow(notebook);
    NotebookActions.changeCellType(notebook, 'markdown');
    const cell = notebook.activeCell;
    if (cell) {
      cell.model.sharedModel.setSource(
        answerAsMarkdown(answer.text, answer.citations, this._prefix(), panel.context.path)
      );
      (cell as MarkdownCell).rendered = true;
    }
    this._options.app.shell.activateById(panel.id);
  }

  private _prefix(): string {
    return this._labPathPrefix ?? '';
  }

  private _onInfo(info: IIndexInfo): void {
    const examples = info.examples ?? [];
    if (examples.join('\n') !== this._examples.join('\n')) {
      this._examples = examples;
      this._showEmptyState();
    }
    this._labPathPrefix = info.lab_path_prefix === null ? null : normalisePrefix(info.lab_path_prefix);
    this._mode.textContent = info.mode === 'extractive' ? 'extractive' : `${info.provider}:${info.model}`;
  }

  /** Open a citation's evidence in Lab (the chat's sources, the notebook widget's chips). */
  openCitation(citation: ICitation): Promise<void> {
    return openCitation(
      { app: this._options.app, docManager: this._options.docManager, labPathPrefix: this._labPathPrefix },
      citation
    );
  }

  private _addAnswer(): AnswerView {
    const answer = new AnswerView({
      rendermime: this._options.rendermime,
      onOpen: citation => void this.openCitation(citation),
      onCopy: a => this.copy(a),
      onInsert: a => void this.insert(a),
      onRendered: () => this._follower.update()
    });
    this._answers.push(answer);
    this._messages.append(answer.node);
    return answer;
  }

  private _showStored(message: IStoredMessage): void {
    this._messages.querySelector('.athena-empty')?.remove();
    if (message.role === 'user') {
      this._lastStoredQuestion = message.content;
      this._messages.append(questionBubble(message.content, undefined, 'athena-', 'athena-user-message'));
      return;
    }
    const answer = this._addAnswer();
    const stored = storedAnswer(message);
    answer.appendChunk(stored.text);
    answer.setCitations(stored.citations);
    if (stored.mode === INTERRUPTED) {
      const question = this._lastStoredQuestion;
      answer.interrupt(() => void this.ask(question));
    } else {
      void answer.finish({ unsupported: stored.unsupported, mode: stored.mode ?? undefined });
    }
  }

  /** Fold `event` into the answer (core/answer.ts) and show what it changed. */
  private _onEvent(answer: AnswerView, before: IAnswerState, event: ChatEvent): IAnswerState {
    const after = foldEvent(before, event);
    if (after.conversationId !== before.conversationId) {
      void this._setConversation(after.conversationId);
    }
    if (after.status !== before.status) {
      answer.setStatus(after.status);
    }
    if (after.trace.length > before.trace.length) {
      answer.addTrace(after.trace[after.trace.length - 1]);
    }
    if (after.text !== before.text) {
      answer.appendChunk(after.text.slice(before.text.length));
    }
    if (after.citations !== before.citations) {
      answer.setCitations(after.citations);
    }
    if (after.droppedTurns !== before.droppedTurns) {
      this._messages.insertBefore(
        h('p', { class: 'athena-compaction' }, `Older turns summarised (${after.droppedTurns} dropped).`),
        answer.node
      );
    }
    if (after.error !== null && before.error === null) {
      answer.fail(after.error);
    } else if (after.finished && !before.finished) {
      void answer.finish({
        unsupported: after.unsupported,
        mode: after.mode ?? undefined,
        no_evidence: (after.noEvidence as 'filters' | 'index' | null) ?? undefined
      });
    }
    return after;
  }

  private async _setConversation(id: string | null): Promise<void> {
    this._conversationId = id;
    this.node.dataset.conversationId = id ?? '';
    await this._options.memory.save(id);
  }

  private _clearMessages(): void {
    this._answers = [];
    this._messages.replaceChildren();
    this._showEmptyState();
  }

  /** An empty conversation says what to do and offers questions from the index's headings. */
  private _showEmptyState(): void {
    const shown = this._messages.querySelector('.athena-empty');
    if (this._messages.children.length > (shown ? 1 : 0)) {
      return; // a conversation is showing
    }
    const empty = emptyState(
      'Ask a question about the indexed documents. Answers quote their sources and cite them as [n]: hover one to preview it, click it to open it.',
      this._examples,
      question => void this.ask(question),
      'athena-'
    );
    if (shown) {
      shown.replaceWith(empty);
    } else {
      this._messages.append(empty);
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
