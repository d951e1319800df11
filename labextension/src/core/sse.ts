/**
 * Incremental parser for a text/event-stream body. The chat endpoint is a POST, which
 * EventSource cannot send, so the stream is read from fetch and parsed here.
 */

export interface IRawEvent {
  event: string;
  data: string;
}

/** Accumulates decoded text and yields every complete event (blank-line terminated). */
export class SSEParser {
  private _buffer = '';

  /** Feed more text; returns the events completed by it. */
  push(text: string): IRawEvent[] {
    this._buffer += text.replace(/\r\n?/g, '\n');
    const events: IRawEvent[] = [];
    let boundary = this._buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = this._buffer.slice(0, boundary);
      this._buffer = this._buffer.slice(boundary + 2);
      const parsed = parseBlock(block);
      if (parsed) {
        events.push(parsed);
      }
      boundary = this._buffer.indexOf('\n\n');
    }
    return events;
  }

  /** Events left when the stream ends without a final blank line. */
  flush(): IRawEvent[] {
    const rest = this._buffer;
    this._buffer = '';
    const parsed = parseBlock(rest);
    return parsed ? [parsed] : [];
  }
}

function parseBlock(block: string): IRawEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) {
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    if (field === 'event') {
      event = value;
    } else if (field === 'data') {
      data.push(value);
    }
  }
  if (data.length === 0) {
    return null;
  }
  return { event, data: data.join('\n') };
}
