/**
 * The one controller of chat turns, shared by the sidebar (src/chatPanel.ts), the chat
 * page (src/page/app.ts) and the drop-in (src/dropin/widget.ts): it sends a question in
 * the current conversation, folds the streamed answer (core/answer.ts), reports a new
 * conversation id, and stops a turn. Stop keeps the partial answer, shown as stopped;
 * abandoning a turn (New, a deleted conversation) shows nothing more of it, so a late
 * `start` event cannot bring back a conversation the reader left. Drawing, history and
 * regenerate stay with each front end, which differ there.
 */
import { ChatEvent, IChatRequest } from '../types';
import { emptyAnswer, IAnswerState, showStreamedAnswer } from './answer';

/** A front end's `streamChat` (core/client.ts). */
export type StreamChat = (
  request: IChatRequest,
  onEvent: (event: ChatEvent) => void,
  signal?: AbortSignal
) => Promise<void>;

export interface IChatTurnsOptions {
  stream: StreamChat;
  /** The conversation a question is asked in (null: a new one). */
  conversation: () => string | null;
  /** The server started a conversation for this turn. */
  onConversation: (id: string) => void;
  /** A turn started, or none is running any more (the composer's Send/Stop). */
  onBusy: (busy: boolean) => void;
}

export class ChatTurns {
  private _abort: AbortController | null = null;

  constructor(private _options: IChatTurnsOptions) {}

  /** True while a turn streams. */
  get busy(): boolean {
    return this._abort !== null;
  }

  /** Stop the running turn; its answer ends stopped, with the text so far. */
  stop(): void {
    this._abort?.abort();
  }

  /** Stop the running turn and show nothing more of it (the reader moved on). */
  abandon(): void {
    const abort = this._abort;
    this._abort = null;
    abort?.abort();
  }

  /**
   * Ask `request` in the current conversation; `show(next, before)` gets each folded state
   * while the turn is still the reader's. Resolves with the last state when the turn ends.
   */
  async ask(
    request: Omit<IChatRequest, 'conversationId'>,
    show: (next: IAnswerState, before: IAnswerState) => void
  ): Promise<IAnswerState> {
    const abort = (this._abort = new AbortController());
    this._options.onBusy(true);
    let before = emptyAnswer();
    try {
      return await showStreamedAnswer(
        onEvent =>
          this._options.stream({ ...request, conversationId: this._options.conversation() }, onEvent, abort.signal),
        next => {
          if (this._abort !== abort) {
            return; // abandoned, or another turn took over
          }
          if (next.conversationId && next.conversationId !== this._options.conversation()) {
            this._options.onConversation(next.conversationId);
          }
          show(next, before);
          before = next;
        }
      );
    } finally {
      if (this._abort === abort) {
        this._abort = null;
      }
      this._options.onBusy(this.busy);
    }
  }
}
