/**
 * What every front end's requests share: URLs under `athena/`, and one way of turning a
 * failed response into an error with the server's own message. Only how a request is sent
 * differs (the sidebar through Jupyter's ServerConnection, the chat page with its cookie,
 * the drop-in widget cross-origin without credentials), so that is passed in.
 */

export type Query = Record<string, string | number | null | undefined>;

/** `base` + `athena/<path>` with the non-empty `query` values. */
export function athenaQueryUrl(base: string, path: string, query: Query = {}): string {
  const url = new URL(`athena/${path}`, base);
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== '') {
      url.searchParams.set(key, String(value));
    }
  }
  return url.href;
}

/** The server's `{error: {message}}`, or `fallback` when the body is not that JSON. */
export async function serverMessage(response: Response, fallback: string): Promise<string> {
  try {
    return (await response.json())?.error?.message ?? fallback;
  } catch {
    return fallback;
  }
}

export interface ICheckedOptions {
  /** The message when the server cannot be reached at all. */
  unreachable: string;
  /** The message when the answer is not a success and carries no message of its own. */
  fallback: (response: Response) => string;
  /** The error a front end raises (its own type, so callers can test `status`). */
  error: (message: string, status: number) => Error;
  /** Advice appended for some statuses (the chat page's 401: open the token URL again). */
  advice?: (status: number) => string;
}

/** Send with `request`; a network failure or non-success answer becomes `options.error`. */
export async function checked(request: () => Promise<Response>, options: ICheckedOptions): Promise<Response> {
  let response: Response;
  try {
    response = await request();
  } catch (err) {
    throw options.error(options.unreachable.replace('{reason}', String(err)), 0);
  }
  if (!response.ok) {
    const message = await serverMessage(response, options.fallback(response));
    throw options.error(message + (options.advice?.(response.status) ?? ''), response.status);
  }
  return response;
}
