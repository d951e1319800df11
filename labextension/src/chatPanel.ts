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
import { answererLabel } from './core/status';
import { answerAsMarkdown, normalisePrefix } from './core/citations';
import { button, h } from './core/dom';
import { markGenerated } from './core/generated';
import { emptyAnswer, IAnswerState, shownText, storedAnswer } from './core/answer';
import { ChatTurns } from './core/turns';
import { emptyState, questionBubble } from './core/question';
import { AnswerView } from './components/answerView';
import { Composer, IAttachedContext } from './components/composer';
import { questionLength } from './core/questionLimit';
import { answererChip, inLabWords } from './labWords';
import { followBuild } from './components/buildProgress';
import { ConversationList } from './components/conversationList';
import { IndexStatusView } from './components/indexStatus';
import { PapersView, papersView } from './components/papersView';
import { openCitation } from './open';
import { BottomFollower } from './core/follow';

import { awaitsAnswer, ConversationLoader, OpenedConversation } from './core/conversation';
import { ConversationMemory } from './state';
import { IChatFilters, ICitation, IConversation, IIndexInfo, IStoredMessage } from './types';

/** What a stored question's context is called when its front end sent no label. */
const STORED_CONTEXT_LABEL = 'an attached cell or selection';

export interface IChatSettings {
  provider: string;
  model: string;
  topK: number;
  defaultFilters: IChatFilters;
}

/** What a question was asked with: what it was about (a cell, a selection) and its filters.
 * Regenerate and edit-and-resend ask it again with the same. */
interface IAskedWith {
  context: IAttachedContext | null;
  filters: IChatFilters;
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
  private _turns: ChatTurns;
  private _messages = h('div', {
    class: 'athena-messages',
    role: 'log',
    'aria-label': 'Conversation',
    'data-testid': 'athena-messages'
  });
  private _mode = h('span', { class: 'athena-server-mode', 'data-testid': 'athena-server-mode' });
  private _historyToggle: HTMLButtonElement;
  private _papersToggle: HTMLButtonElement;
  private _papers: PapersView;
  private _status: IndexStatusView;
  private _history: ConversationList;
  private _composer: Composer;
  private _follower = new BottomFollower(this._messages);
  /** The last stored question shown, for Retry under its interrupted answer. */
  private _lastStoredQuestion: { question: string } & IAskedWith = { question: '', context: null, filters: {} };
  private _examples: string[] = [];
  /** Bumped by each switch, New and question: a conversation that loads after a later
   * choice is dropped. */
  /** Opens stored conversations; what the reader chose last wins (core/conversation.ts). */
  private _loader = new ConversationLoader({ get: api.getConversation });
  /** The conversation deleted while shown, until its undo window passes (undo brings it back). */
  private _deletedShown: string | null = null;
  /** What each question shown was asked with, for regenerate and edit-and-resend. */
  private _askedWith = new WeakMap<HTMLElement, IAskedWith>();
  private _regenerate: HTMLButtonElement;
  /** The server's own answerer ("extractive", "openai:gpt-4o-mini"), from /athena/info. */
  private _serverMode = '';
  /** How the last question ended, for the header chip: what answered, or the error. */
  private _lastOutcome: { mode?: string | null; error?: string | null } = {};

  constructor(private _options: IChatPanelOptions) {
    super();
    this.addClass('athena-chat');
    this.node.dataset.testid = 'athena-chat';
    this._turns = new ChatTurns({
      stream: api.streamChat,
      conversation: () => this._conversationId,
      onConversation: id => void this._setConversation(id),
      onBusy: busy => (this._composer.busy = busy)
    });
    this._status = new IndexStatusView(info => this._onInfo(info));
    this._history = new ConversationList({
      onSwitch: id => void this.switchTo(id),
      onDeleting: id => void this._onDeleting(id),
      onDelete: id => void this.deleteConversation(id),
      onRestore: id => void this._onRestore(id),
      fallbackFocus: () => this._historyToggle.focus(),
      server: api.serverUrl
    });
    this._composer = new Composer({
      onSend: (question, context) => void this.ask(question, context),
      onStop: () => this._turns.stop()
    });
    this._regenerate = button('\u21bb Regenerate', () => void this.regenerate(), {
      class: 'athena-regenerate',
      'data-testid': 'athena-regenerate',
      'aria-label': 'Regenerate the last answer'
    });
    this._historyToggle = button('History', () => void this.toggleHistory(), {
      class: 'athena-history-toggle',
      'aria-expanded': 'false',
      'aria-label': 'Show conversation history'
    });
    this._papers = papersView(
      api,
      this._composer,
      () => {
        void this.togglePapers(false);
        this.focusInput();
      },
      citation => void this.openCitation(citation)
    );
    this._papersToggle = button('Papers', () => void this.togglePapers(), {
      class: 'athena-papers-toggle',
      'aria-expanded': 'false',
      'aria-label': 'Show the papers',
      'data-testid': 'athena-papers-toggle'
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
      this._papersToggle,
      this._historyToggle
    );
    this.node.append(header, this._status.node, this._history.node, this._papers.node, this._messages,
      this._composer.node);
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
    this._lastOutcome = {}; // another provider chosen: the last one's outcome no longer applies
    this._showAnswerer();
  }

  /** The header chip: who will answer, who answered last, or that the chosen provider failed. */
  private _showAnswerer(): void {
    const chip = answererChip(this._serverMode, this._options.settings(), this._lastOutcome);
    this._mode.textContent = chip.text;
    this._mode.title = chip.title;
    this._mode.classList.toggle('athena-server-mode-failed', chip.failed);
  }

  /** Load index status and the remembered conversation. */
  async start(): Promise<void> {
    this.applySettings();
    this._history.finishLeftDeletes();
    await this._status.refresh();
    const remembered = await this._options.memory.load();
    if (remembered) {
      await this.switchTo(remembered);
    }
  }

  reindex(): Promise<void> {
    return this._status.reindex();
  }

  /** Attach a notebook cell or selection to the next question ("Ask about this cell"). */
  attachContext(context: IAttachedContext): void {
    this._composer.setContext(context);
    this.focusInput();
  }

  /** Ask `question` with the composer's filters, or with `filters` (a question asked again). */
  async ask(
    question: string,
    context: IAttachedContext | null = null,
    filters: IChatFilters = this._composer.filters
  ): Promise<void> {
    this._loader.moveOn(); // a remembered conversation still loading must not replace this turn
    this._regenerate.remove();
    this._messages.querySelector('.athena-empty')?.remove();
    this._messages.append(this._userMessage(question, { context, filters }));
    const answer = this._addAnswer(() => void this.ask(question, context, filters));
    this._follower.follow();
    answer.update(emptyAnswer());
    const settings = this._options.settings();
    try {
      await this._turns.ask(
        {
          question,
          filters,
          provider: settings.provider,
          model: settings.model,
          topK: settings.topK,
          context: context?.text,
          contextLabel: context?.label
        },
        (next, before) => this._onState(answer, before, next)
      );
    } finally {
      this._showRegenerate();
      if (this._history.open) {
        await this._refreshHistory();
      }
    }
  }

  /** Ask the last question again in place of its answer. */
  async regenerate(): Promise<void> {
    const questions = this._questionNodes();
    const last = questions[questions.length - 1];
    if (!last || this._turns.busy) {
      return;
    }
    await this.resend(questions.length - 1, last.dataset.question ?? '', this._asked(last));
  }

  /**
   * Ask question `turn` (0-based) again, as `question`, with what it was asked with: the
   * server drops it and everything after it (POST …/rewind), the view shows what is left,
   * and the question streams anew.
   */
  async resend(turn: number, question: string, asked: IAskedWith): Promise<void> {
    if (this._turns.busy || !question.trim()) {
      return;
    }
    const refusal = questionLength(question, this._composer.maxChars).refusal;
    if (refusal) {
      // Refused here, as the composer refuses it: the server would only say so after Send.
      await showErrorMessage('Cannot ask that question again', refusal);
      return;
    }
    this._loader.moveOn(); // what a restore or a pending-answer look would show is about to change
    this.focusInput(); // the buttons that asked for this are about to go away
    if (this._conversationId) {
      try {
        const conversation = await api.rewindConversation(this._conversationId, turn);
        this._clearMessages();
        conversation.messages.forEach(message => this._showStored(message));
      } catch (err) {
        if ((err as api.AthenaError).status !== 404) {
          await showErrorMessage('Cannot ask that question again', (err as Error).message);
          return;
        }
        this._dropFrom(turn); // never saved (the answer failed before it started): just ask again
      }
    } else {
      this._dropFrom(turn);
    }
    await this.ask(question.trim(), asked.context, asked.filters);
  }

  async newConversation(): Promise<void> {
    this._loader.moveOn();
    this._turns.abandon();
    await this._setConversation(null);
    this._clearMessages();
    this.focusInput();
  }

  async switchTo(id: string): Promise<void> {
    let opened: OpenedConversation;
    try {
      opened = await this._loader.open(id);
    } catch (err) {
      await showErrorMessage('Cannot load the conversation', (err as Error).message);
      return;
    }
    if (opened.kind === 'gone') {
      await this._setConversation(null);
    } else if (opened.kind === 'open') {
      const conversation = opened.conversation;
      this._show(conversation);
      await this._setConversation(conversation.id);
      await Promise.all(this._answers.map(a => a.rendered()));
      this._follower.follow();
      if (awaitsAnswer(conversation)) {
        void this._awaitStoredAnswer(conversation.id);
      }
    }
  }

  private _show(conversation: IConversation): void {
    this._clearMessages();
    conversation.messages.forEach(message => this._showStored(message));
    this._showRegenerate();
  }

  /** Show the answer of a conversation left mid-answer once the server has stored it. */
  private async _awaitStoredAnswer(id: string): Promise<void> {
    const conversation = await this._loader.answered(id);
    if (conversation && this._conversationId === id) {
      this._show(conversation);
      await Promise.all(this._answers.map(a => a.rendered()));
      this._follower.follow();
    }
  }

  /** Delete on the server (the history list calls this when its undo window has passed). */
  async deleteConversation(id: string): Promise<void> {
    if (this._deletedShown === id) {
      this._deletedShown = null;
    }
    try {
      await api.deleteConversation(id);
    } catch (err) {
      if ((err as api.AthenaError).status !== 404) {
        await showErrorMessage('Cannot delete the conversation', (err as Error).message);
      }
    }
    if (id === this._conversationId) {
      await this._setConversation(null);
      this._clearMessages();
    }
  }

  /** A conversation was deleted in the history: stop showing it (undo brings it back). */
  private async _onDeleting(id: string): Promise<void> {
    if (id === this._conversationId) {
      this._loader.moveOn(); // a look for its pending answer must not bring it back
      this._turns.abandon();
      this._deletedShown = id;
      await this._setConversation(null);
      this._clearMessages();
    }
  }

  private async _onRestore(id: string): Promise<void> {
    if (this._deletedShown === id) {
      this._deletedShown = null;
      const focused = document.activeElement as HTMLElement | null;
      await this.switchTo(id);
      focused?.focus();
    }
  }

  /** Show the papers in place of the conversation (the question box stays), or go back. */
  async togglePapers(open = !this._papers.open): Promise<void> {
    this._papers.open = open;
    this._messages.hidden = open;
    this._papersToggle.setAttribute('aria-expanded', String(open));
    this._papersToggle.setAttribute('aria-label', open ? 'Back to the conversation' : 'Show the papers');
    this._papersToggle.textContent = open ? 'Chat' : 'Papers';
    if (open) {
      await this._papers.refresh();
      this._papers.focus();
    }
  }

  async toggleHistory(): Promise<void> {
    this._history.open = !this._history.open;
    this._historyToggle.setAttribute('aria-expanded', String(this._history.open));
    if (this._history.open) {
      await this._refreshHistory();
    }
  }

  copy(answer: AnswerView): void {
    Clipboard.copyToSystem(answerAsMarkdown(shownText(answer), answer.citations, this._prefix(), ''));
  }

  /**
   * Insert `answer` with linked sources as a rendered Markdown cell below the active cell,
   * marked in its metadata as athena's (core/generated.ts): never indexed or cited.
   */
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
        answerAsMarkdown(shownText(answer), answer.citations, this._prefix(), panel.context.path)
      );
      // athena's own answer: the indexer leaves the cell out, so it is never cited.
      markGenerated(cell.model);
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
    if (info.limits) {
      this._composer.maxChars = info.limits.max_question_chars;
    }
    this._serverMode = info.mode === 'extractive' ? 'extractive' : answererLabel(info);
    this._showAnswerer();
  }

  /** Open a citation's evidence in Lab (the chat's sources, the notebook widget's chips). */
  openCitation(citation: ICitation): Promise<void> {
    return openCitation(
      { app: this._options.app, docManager: this._options.docManager, labPathPrefix: this._labPathPrefix },
      citation
    );
  }

  private _addAnswer(onRetry: () => void): AnswerView {
    const answer = new AnswerView({
      onRetry,
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
      const asked: IAskedWith = {
        filters: message.filters ?? {},
        context: message.context
          ? { label: message.context.label ?? STORED_CONTEXT_LABEL, text: message.context.text }
          : null
      };
      this._lastStoredQuestion = { question: message.content, ...asked };
      this._messages.append(this._userMessage(message.content, asked));
      return;
    }
    const { question, context, filters } = this._lastStoredQuestion;
    this._addAnswer(() => void this.ask(question, context, filters)).update(storedAnswer(message));
  }

  /** Show the answer's next folded state (core/answer.ts), and what it means for the chat. */
  private _onState(answer: AnswerView, before: IAnswerState, after: IAnswerState): void {
    if (after.droppedTurns !== before.droppedTurns) {
      this._messages.insertBefore(
        h('p', { class: 'athena-compaction' }, `Older turns summarised (${after.droppedTurns} dropped).`),
        answer.node
      );
    }
    // Errors speak Lab's language (labWords.ts); the header chip says what answered, or failed.
    answer.update(after.error !== null ? { ...after, error: inLabWords(after.error) } : after);
    if (after.finished && !before.finished) {
      this._follower.update();
      if (after.error !== null) {
        this._lastOutcome = { error: after.error };
      } else if (!after.stopped) {
        this._lastOutcome = { mode: after.mode };
        if (after.building === 'multilingual') {
          void followBuild(answer.node, api.getReindex); // the build's progress where the question was asked
        }
      }
      this._showAnswerer();
    }
  }

  private async _setConversation(id: string | null): Promise<void> {
    this._conversationId = id;
    this.node.dataset.conversationId = id ?? '';
    this._history.markCurrent(id);
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

  private _asked(node: HTMLElement): IAskedWith {
    return this._askedWith.get(node) ?? { context: null, filters: {} };
  }

  private _questionNodes(): HTMLElement[] {
    return Array.from(this._messages.querySelectorAll<HTMLElement>('.athena-user-turn'));
  }

  /** Remove question `turn` and everything shown after it. */
  private _dropFrom(turn: number): void {
    const node = this._questionNodes()[turn];
    while (node?.nextSibling) {
      node.nextSibling.remove();
    }
    node?.remove();
    const kept = new Set(Array.from(this._messages.querySelectorAll('.athena-answer')));
    this._answers = this._answers.filter(a => kept.has(a.node));
  }

  /** Regenerate sits under the last answer while nothing streams. */
  private _showRegenerate(): void {
    if (this._questionNodes().length && this._messages.lastElementChild) {
      this._messages.append(this._regenerate);
      this._follower.update();
    } else {
      this._regenerate.remove();
    }
  }

  /** A question's row: what it was asked about, the bubble (collapsed when long, with its
   * filters) and Edit beside it. */
  private _userMessage(question: string, asked: IAskedWith): HTMLElement {
    const { context, filters } = asked;
    const node = h(
      'div',
      { class: 'athena-user-turn' },
      context ? h('div', { class: 'athena-user-context', title: context.text.slice(0, 2000) }, `About ${context.label}`) : null,
      questionBubble(question, filters, 'athena-', 'athena-user-message')
    );
    node.dataset.question = question;
    this._askedWith.set(node, asked);
    const edit = button('Edit', () => this._edit(node, edit), {
      class: 'athena-edit-question',
      'data-testid': 'athena-edit-question',
      'aria-label': `Edit and resend: ${question.slice(0, 60)}`
    });
    node.append(edit);
    return node;
  }

  /** Edit a question in place: Enter (or "Resend") asks it again from there, Escape cancels. */
  private _edit(node: HTMLElement, edit: HTMLButtonElement): void {
    if (this._turns.busy || node.querySelector('.athena-edit-box')) {
      return;
    }
    const original = node.dataset.question ?? '';
    const box = h('textarea', {
      class: 'athena-edit-box',
      'data-testid': 'athena-edit-box',
      rows: '3',
      'aria-label': 'Edit the question (Enter resends, Escape cancels)'
    });
    box.value = original;
    const close = () => {
      form.remove();
      node.querySelector<HTMLElement>('.athena-user-message')!.hidden = false;
      edit.hidden = false;
      edit.focus();
    };
    const send = () => {
      const turn = this._questionNodes().indexOf(node);
      const question = box.value.trim();
      if (!question || turn < 0) {
        return;
      }
      void this.resend(turn, question, this._asked(node));
    };
    box.addEventListener('keydown', event => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close();
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        send();
      }
    });
    const form = h(
      'div',
      { class: 'athena-edit' },
      box,
      h(
        'div',
        { class: 'athena-edit-actions' },
        button('Resend', send, { class: 'athena-edit-send jp-mod-styled', 'data-testid': 'athena-edit-send' }),
        button('Cancel', close, { class: 'athena-edit-cancel' })
      )
    );
    node.querySelector<HTMLElement>('.athena-user-message')!.hidden = true;
    edit.hidden = true;
    node.append(form);
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }

  private async _refreshHistory(): Promise<void> {
    try {
      this._history.show(await api.listConversations(), this._conversationId);
    } catch (err) {
      this._history.showError((err as Error).message);
    }
  }
}
