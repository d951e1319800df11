/**
 * How long a question may be. The server refuses a longer one (400, athena_lab/server/
 * state.py `Limits.max_question_chars`, shown in GET /athena/info `limits`), so the
 * composers count and refuse before Send: a 59,000-character paste is stopped where it
 * was typed, with what to do, instead of failing after Send (and again on Regenerate).
 */

/** The server's default; a front end that can read /athena/info uses the server's value. */
export const MAX_QUESTION_CHARS = 8000;

/** The counter shows once a question passes this share of the limit. */
const SHOW_FROM = 0.8;

export interface IQuestionLength {
  /** The counter's text ("7,012 / 8,000"), or '' while the question is short. */
  counter: string;
  /** Why Send is refused, or '' when the question fits. */
  refusal: string;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** What the counter says about `question` against `limit` characters. */
export function questionLength(question: string, limit: number = MAX_QUESTION_CHARS): IQuestionLength {
  const length = question.trim().length;
  if (length <= limit * SHOW_FROM) {
    return { counter: '', refusal: '' };
  }
  const counter = `${count(length)} / ${count(limit)}`;
  if (length <= limit) {
    return { counter, refusal: '' };
  }
  return {
    counter,
    refusal:
      `The question is ${count(length)} characters; the limit is ${count(limit)}. ` +
      `Shorten it by ${count(length - limit)} characters to send it.`
  };
}
