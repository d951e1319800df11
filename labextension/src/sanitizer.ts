/**
 * The core sanitizer (./core/sanitizer.ts) in the shape Lab's render registry takes, for
 * the sidebar's Markdown (./markdown.ts).
 */
import { IRenderMime } from '@jupyterlab/rendermime';

import { sanitizeUntrustedHtml } from './core/sanitizer';

/**
 * The sanitizer to give a render registry that shows untrusted text. Lab's options
 * (extra allowed tags and styles) are ignored on purpose: the rules are fixed.
 */
export const untrustedSanitizer: IRenderMime.ISanitizer = {
  sanitize: (dirty: string) => sanitizeUntrustedHtml(dirty),
  getAutolink: () => true,
  allowNamedProperties: false,
  allowCommandLinker: false
};
