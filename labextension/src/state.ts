/**
 * Remembers which conversation the chat shows, so a page reload comes back to it.
 * localStorage answers synchronously on reload; the state DB keeps it with the workspace.
 */
import { IStateDB } from '@jupyterlab/statedb';

const KEY = 'athena-lab:current-conversation';

export class ConversationMemory {
  constructor(private _db: IStateDB | null) {}

  async load(): Promise<string | null> {
    const local = window.localStorage.getItem(KEY);
    if (local) {
      return local;
    }
    const stored = this._db ? await this._db.fetch(KEY) : null;
    return typeof stored === 'string' && stored ? stored : null;
  }

  async save(id: string | null): Promise<void> {
    if (id) {
      window.localStorage.setItem(KEY, id);
    } else {
      window.localStorage.removeItem(KEY);
    }
    if (this._db) {
      await (id ? this._db.save(KEY, id) : this._db.remove(KEY));
    }
  }
}
