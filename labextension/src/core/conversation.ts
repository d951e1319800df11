/**
 * Loading a stored conversation into a chat, shared by the sidebar (src/chatPanel.ts) and
 * the chat page (src/page/app.ts): open one from the history or a reload, and wait for the
 * answer of one left mid-answer. A load takes a round trip; if the reader chose something
 * else meanwhile (asked, New, another conversation, a rewind, a delete), what it brings is
 * stale and must not replace what the reader chose, so every choice moves the loader on
 * (`moveOn`) and a load only shows what is still the reader's.
 */
import { IConversation } from '../types';

/** What opening a conversation came to. */
export type OpenedConversation =
  | { kind: 'open'; conversation: IConversation }
  /** The server has no such conversation (deleted elsewhere, or a remembered id gone). */
  | { kind: 'gone' }
  /** The reader chose something else while it loaded: show nothing. */
  | { kind: 'stale' };

export interface IConversationLoaderOptions {
  /** GET /athena/conversations/{id} (core/client.ts); its errors carry the HTTP `status`. */
  get: (id: string) => Promise<IConversation>;
  /** How often, and how many times, to look for the answer of a conversation left mid-answer. */
  intervalMs?: number;
  checks?: number;
}

/** True when the conversation's last message is a question still waiting for its answer. */
export function awaitsAnswer(conversation: IConversation): boolean {
  return conversation.messages[conversation.messages.length - 1]?.role === 'user';
}

export class ConversationLoader {
  private _choice = 0;

  constructor(private _options: IConversationLoaderOptions) {}

  /** The reader chose something: a load or a look still running shows nothing. */
  moveOn(): void {
    this._choice++;
  }

  /** Open `id`; an error other than 404 is thrown with the server's message. */
  async open(id: string): Promise<OpenedConversation> {
    const choice = ++this._choice;
    try {
      const conversation = await this._options.get(id);
      return choice === this._choice ? { kind: 'open', conversation } : { kind: 'stale' };
    } catch (err) {
      if (choice !== this._choice) {
        return { kind: 'stale' };
      }
      if ((err as { status?: number }).status === 404) {
        return { kind: 'gone' };
      }
      throw err;
    }
  }

  /**
   * A conversation left mid-answer (a reload while streaming) ends in a question whose
   * answer the server is still closing: it stores the partial text, marked interrupted,
   * once it notices the reader left, which takes until the model's next token. Look again
   * for a while: the conversation with its answer, or null when the reader moved on, the
   * answer never came (20 s by default) or the server could not be asked.
   */
  async answered(id: string): Promise<IConversation | null> {
    const choice = this._choice;
    const { intervalMs = 1000, checks = 20 } = this._options;
    for (let check = 0; check < checks; check++) {
      await new Promise(resolve => setTimeout(resolve, intervalMs));
      if (choice !== this._choice) {
        return null;
      }
      let conversation: IConversation;
      try {
        conversation = await this._options.get(id);
      } catch {
        return null;
      }
      if (choice !== this._choice) {
        return null;
      }
      if (!awaitsAnswer(conversation)) {
        return conversation;
      }
    }
    return null;
  }
}
