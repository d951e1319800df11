/**
 * The chat request body and the reading of its SSE answer, shared by every front end.
 * Only how the request is sent differs: the sidebar goes through Jupyter's
 * ServerConnection (base URL, XSRF), the chat page uses a same-origin fetch with the
 * server's cookie. Both hand the Response here.
 */
import { ChatEvent, IChatRequest } from '../types';
import { SSEParser } from './sse';

/** The JSON body of POST /athena/chat for `request` (empty filters are left out). */
export function chatBody(request: IChatRequest): string {
  const body: Record<string, unknown> = {
    messages: [{ role: 'user', content: request.question }],
    stream: true
  };
  if (request.conversationId) {
    body.conversation_id = request.conversationId;
  }
  const filters = Object.fromEntries(
    Object.entries(request.filters ?? {}).filter(([, value]) => value)
  );
  if (Object.keys(filters).length) {
    body.filters = filters;
  }
  if (request.provider) {
    body.provider = request.provider;
  }
  if (request.model) {
    body.model = request.model;
  }
  if (request.topK) {
    body.k = request.topK; // passages retrieved first (the server still reads the old name, top_k)
  }
  if (request.context) {
    body.context = request.context;
    if (request.contextLabel) {
      body.context_label = request.contextLabel;
    }
  }
  return JSON.stringify(body);
}

/** Read a text/event-stream body to its end, handing each parsed event to `onEvent`. */
export async function readChatEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ChatEvent) => void
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SSEParser();
  const emit = (raw: { event: string; data: string }) => {
    onEvent({ type: raw.event, data: JSON.parse(raw.data) } as ChatEvent);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    parser.push(decoder.decode(value, { stream: true })).forEach(emit);
  }
  parser.push(decoder.decode()).forEach(emit);
  parser.flush().forEach(emit);
}

/** How a front end POSTs one chat request: its own base URL, auth and error type. */
export type ChatPoster = (init: RequestInit) => Promise<Response>;

/**
 * Ask through `post` and hand each chat event to `onEvent` as it arrives; resolves when the
 * stream ends. `noBody` names the error a front end raises for an answer with no stream.
 */
export async function postChat(
  post: ChatPoster,
  request: IChatRequest,
  onEvent: (event: ChatEvent) => void,
  signal: AbortSignal | undefined,
  noBody: (status: number) => Error
): Promise<void> {
  const response = await post({
    method: 'POST',
    body: chatBody(request),
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    signal
  });
  if (!response.body) {
    throw noBody(response.status);
  }
  await readChatEvents(response.body, onEvent);
}

/** A front end's `streamChat(request, onEvent, signal)`, posting through `post`. */
export function chatStreamer(
  post: ChatPoster,
  noBody: (status: number) => Error
): (request: IChatRequest, onEvent: (event: ChatEvent) => void, signal?: AbortSignal) => Promise<void> {
  return (request, onEvent, signal) => postChat(post, request, onEvent, signal, noBody);
}
