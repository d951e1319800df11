/**
 * The drop-in chat: a floating button and a panel, inside a shadow root on the host
 * page. Answers are folded by the core (core/answer.ts) and drawn by the chat page's
 * answer view; a citation with a docs-site `url` links to that page, any other opens the
 * page's source viewer inside the panel (its reads go through dropinClient, dropin/api.ts).
 *
 * Keyboard: the button is a real <button> (Tab reaches it, Enter opens); the question box
 * takes focus on open; Enter sends, Shift+Enter is a new line; Escape closes the viewer if
 * it is open, else the panel, and focus returns to the button.
 */
import { ChatTurns } from '../core/turns';
import { button, h } from '../core/dom';
import { questionLength } from '../core/questionLimit';
import { BottomFollower } from '../core/follow';
import { ICitation } from '../types';
import { PageAnswer } from '../page/answerView';
import { SourceViewer } from '../page/viewer';
import { AthenaClient } from '../core/client';
import { dropinClient } from './api';
import { IDropinConfig } from './config';
import { WIDGET_CSS } from './styles';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';

export class DropinWidget {
  readonly root: HTMLElement;
  private _api: AthenaClient;
  private _launcher: HTMLButtonElement;
  private _panel: HTMLElement;
  private _messages: HTMLElement;
  private _follower: BottomFollower;
  private _input: HTMLTextAreaElement;
  private _send: HTMLButtonElement;
  /** Near the server's question limit, how many characters; over it, why Ask is refused. */
  private _counter = h('div', { class: 'counter', role: 'status', 'data-testid': 'counter' });
  private _viewer: SourceViewer;
  private _conversationId: string | null = null;
  private _turns: ChatTurns;

  constructor(private _config: IDropinConfig) {
    this._api = dropinClient(_config.base);
    this._viewer = new SourceViewer(this._api, () => undefined);
    this._turns = new ChatTurns({
      stream: this._api.streamChat,
      conversation: () => this._conversationId,
      onConversation: id => (this._conversationId = id),
      onBusy: busy => this._busy(busy)
    });
    this._launcher = button('', () => this.toggle(), {
      class: 'launcher',
      'aria-expanded': 'false',
      'aria-controls': 'athena-panel',
      'data-testid': 'launcher'
    });
    // A fixed, trusted SVG (no data from anywhere): the one place markup is parsed.
    this._launcher.append(svgIcon(), h('span', {}, _config.title));
    this._input = h('textarea', {
      rows: '1',
      placeholder: _config.placeholder,
      'aria-label': _config.placeholder,
      'data-testid': 'input'
    });
    this._input.addEventListener('keydown', event => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this._submit();
      }
    });
    this._input.addEventListener('input', () => this._busy(this._turns.busy));
    this._send = button('Ask', () => this._submit(), { class: 'send', 'data-testid': 'send' });
    this._counter.hidden = true;
    this._messages = h(
      'div',
      { class: 'messages', role: 'log', 'aria-label': 'Conversation', 'data-testid': 'messages' },
      this._welcome()
    );
    // Keeps the newest text in view, unless the reader scrolled up to read.
    this._follower = new BottomFollower(this._messages);
    this._panel = h(
      'section',
      { class: 'panel', id: 'athena-panel', role: 'dialog', 'aria-label': _config.title, 'data-testid': 'panel' },
      h(
        'header',
        { class: 'panel-header' },
        h('h2', { class: 'panel-title' }, _config.title),
        button('New', () => this._reset(), { class: 'icon-button', 'aria-label': 'Start a new conversation' }),
        button('\u2715', () => this.close(), { class: 'icon-button', 'aria-label': 'Close', 'data-testid': 'close' })
      ),
      this._messages,
      h('div', { class: 'composer' }, this._input, this._send),
      this._counter,
      this._viewer.node
    );
    this._panel.hidden = true;
    this._panel.addEventListener('keydown', event => {
      // The viewer closes itself on Escape; only an Escape outside it closes the panel.
      if (event.key === 'Escape' && !event.composedPath().includes(this._viewer.node)) {
        event.preventDefault();
        this.close();
      }
    });
    this.root = h(
      'div',
      { class: 'root', 'data-position': _config.position, 'data-theme': _config.theme, 'data-testid': 'root' },
      this._panel,
      this._launcher
    );
    if (_config.accent) {
      // CSSOM, not a style attribute: a host page CSP without 'unsafe-inline' allows it.
      this.root.style.setProperty('--accent', _config.accent);
    }
  }

  /** Attach to `host` (an element the entry adds to the page) in an open shadow root. */
  mount(host: HTMLElement): void {
    const shadow = host.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in shadow && typeof CSSStyleSheet !== 'undefined' && 'replaceSync' in CSSStyleSheet.prototype) {
      // A constructed sheet, not a <style>: the host page's CSP cannot block it.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(WIDGET_CSS);
      shadow.adoptedStyleSheets = [sheet];
    } else {
      shadow.append(h('style', {}, WIDGET_CSS));
    }
    shadow.append(this.root);
  }

  get isOpen(): boolean {
    return !this._panel.hidden;
  }

  toggle(): void {
    if (this.isOpen) {
      this.close();
    } else {
      this.open();
    }
  }

  open(): void {
    this._panel.hidden = false;
    this._launcher.setAttribute('aria-expanded', 'true');
    this._input.focus();
  }

  close(): void {
    if (this._viewer.isOpen) {
      this._viewer.close();
    }
    this._panel.hidden = true;
    this._launcher.setAttribute('aria-expanded', 'false');
    this._launcher.focus();
  }

  async ask(question: string): Promise<void> {
    this._messages.querySelector('.welcome-block')?.remove();
    this._messages.append(h('div', { class: 'question', 'data-testid': 'question' }, question));
    const view = new PageAnswer((citation, trigger) => this._openCitation(citation, trigger), {
      siteLinks: true,
      trace: false,
      mode: false,
      onRetry: () => void this.ask(question)
    });
    this._messages.append(view.node);
    this._follower.follow(); // the reader asked: show the answer coming
    await this._turns.ask({ question }, next => {
      view.update(next);
      this._follower.update();
    });
  }

  private _submit(): void {
    const question = this._input.value.trim();
    if (!question || this._turns.busy || questionLength(question).refusal) {
      return; // an over-long question: the counter under the box says why
    }
    this._input.value = '';
    void this.ask(question);
  }

  /** Ask is off while an answer streams or the question is over the server's limit
   * (POST /chat would refuse it after the reader waited for nothing). */
  private _busy(busy: boolean): void {
    const length = questionLength(this._input.value);
    this._counter.hidden = !length.counter;
    this._counter.classList.toggle('over', !!length.refusal);
    this._counter.textContent = length.refusal ? `${length.counter} \u2014 ${length.refusal}` : length.counter;
    this._send.disabled = busy || !!length.refusal;
    this._send.textContent = busy ? '\u2026' : 'Ask';
  }

  private _openCitation(citation: ICitation, trigger: HTMLElement): void {
    if (citation.url) {
      window.open(citation.url, '_blank', 'noopener,noreferrer');
    } else {
      void this._viewer.open(citation, trigger);
    }
  }

  private _reset(): void {
    this._turns.abandon();
    this._conversationId = null;
    this._messages.replaceChildren(this._welcome());
    this._input.focus();
  }

  private _welcome(): HTMLElement {
    const starters = this._config.questions.map(question =>
      button(question, () => void this.ask(question), { class: 'starter', 'data-testid': 'starter' })
    );
    return h(
      'div',
      { class: 'welcome-block' },
      h('p', { class: 'welcome' }, 'Ask a question: answers cite the pages they come from.'),
      starters.length ? h('div', { class: 'starters', role: 'list' }, ...starters) : null
    );
  }
}

function svgIcon(): Element {
  const template = document.createElement('template');
  template.innerHTML = CHAT_ICON;
  return template.content.firstElementChild as Element;
}
