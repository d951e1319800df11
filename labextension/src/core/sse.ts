/**
 * Incremental reading of a text/event-stream body. The chat endpoint is a POST, which
 * EventSource cannot send, so the stream is read from fetch and parsed here by
 * `eventsource-parser`, which follows the spec's line rules across reads (a `\r\n` split
 * between two reads is one line end, not two).
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface IRawEvent {
  event: string;
  data: string;
}

/** Accumulates decoded text and yields every complete event (blank-line terminated). */
export class SSEParser {
  private _ready: IRawEvent[] = [];
  private _parser: EventSourceParser = createParser({
    onEvent: message => this._ready.push({ event: message.event ?? 'message', data: message.data })
  });

  /** Feed more text; returns the events completed by it. */
  push(text: string): IRawEvent[] {
    this._parser.feed(text);
    const events = this._ready;
    this._ready = [];
    return events;
  }

  /**
   * Events left when the stream ends without a final blank line: a server cut off mid
   * answer may still have sent a whole `error` event, and dropping it would hide why.
   */
  flush(): IRawEvent[] {
    const events = this.push('\n\n');
    this._parser.reset();
    return events;
  }
}
