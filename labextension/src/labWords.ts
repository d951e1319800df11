/**
 * Errors in Lab's words. The server writes a provider's configuration errors for the
 * terminal ("set llm.model or pass --model"); in the sidebar there is no flag to pass,
 * so the fix is named as the setting to change in Settings → Athena chat (Lab's
 * settings editor), or in your own config file where Lab has no setting for it — never the
 * folder's athena.toml, which may not choose a model (README, "Configuration").
 */

/** Where the sidebar's own settings live, as Lab's menus name them. */
export const LAB_SETTINGS = 'Settings \u2192 Settings Editor \u2192 Athena chat';

/** The user's own config file: the only file where [llm] is read (not the folder's athena.toml). */
export const USER_CONFIG = '~/.config/athena/config.toml';

/** The CLI flags the server names, and the fix a Lab user can make instead. */
const FLAG_FIXES: Array<[RegExp, string]> = [
  [/set llm\.model or pass --model\b/, `choose a Model in ${LAB_SETTINGS} (or set model under [llm] in ${USER_CONFIG})`],
  [/set llm\.provider or pass --provider\b/, `choose a Provider in ${LAB_SETTINGS}`],
  [/set llm\.model_path or pass --model-path FILE\.gguf/, `set model_path under [llm] in ${USER_CONFIG} to a .gguf file`],
  [/,? ?or pass --model-path FILE\.gguf/, `, or set model_path under [llm] in ${USER_CONFIG} to a .gguf file`],
  [/then --provider local\b/, `then choose the local Provider in ${LAB_SETTINGS}`],
  [/pass --model\b/, `choose a Model in ${LAB_SETTINGS}`],
  [/pass --provider\b/, `choose a Provider in ${LAB_SETTINGS}`]
];

/** `message` with every CLI flag replaced by the Lab setting (or config key) that does the same. */
export function inLabWords(message: string): string {
  let out = message;
  for (const [flag, fix] of FLAG_FIXES) {
    out = out.replace(flag, fix);
  }
  return out;
}

/** What the header chip says about who answers. */
export interface IAnswererChip {
  text: string;
  title: string;
  failed: boolean;
}

/**
 * The chip before any answer: the provider chosen in Lab's settings when there is one
 * (that is what will answer), else the server's own. After an answer: what actually
 * answered (the `done` event's mode); after a failure of the chosen provider: that it failed.
 */
export function answererChip(
  serverMode: string,
  chosen: { provider: string; model: string },
  last: { mode?: string | null; error?: string | null } = {}
): IAnswererChip {
  const chosenLabel = chosen.provider ? (chosen.model ? `${chosen.provider}:${chosen.model}` : chosen.provider) : '';
  const planned = chosenLabel || serverMode;
  const where = chosenLabel ? `chosen in ${LAB_SETTINGS}` : 'the server\u2019s choice';
  if (last.error) {
    return {
      text: `${planned} failed`,
      title: `The last question failed with ${planned} (${where}): ${inLabWords(last.error)}`,
      failed: true
    };
  }
  if (last.mode) {
    return { text: last.mode, title: `The last answer came from ${last.mode}.`, failed: false };
  }
  return { text: planned, title: `Answers come from ${planned} (${where}).`, failed: false };
}
