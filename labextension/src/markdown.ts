/**
 * Renders model output and document snippets as Markdown through Lab's own renderer
 * (its Markdown parser, code highlighting and math), always untrusted and through the
 * project's sanitizer (./core/sanitizer.ts): nothing a document or a model writes can
 * run, fetch from another host or trigger a Lab command.
 */
import { IRenderMime, IRenderMimeRegistry, MimeModel } from '@jupyterlab/rendermime';

import { withoutRestRoles } from './core/restRoles';
import { sanitizeUntrustedHtml } from './core/sanitizer';

/**
 * The sanitizer to give a render registry that shows untrusted text. Lab's options
 * (extra allowed tags and styles) are ignored on purpose: the rules are fixed.
 */
const untrustedSanitizer: IRenderMime.ISanitizer = {
  sanitize: (dirty: string) => sanitizeUntrustedHtml(dirty),
  getAutolink: () => true,
  allowNamedProperties: false,
  allowCommandLinker: false
};

const MIME = 'text/markdown';

const untrustedRegistries = new WeakMap<IRenderMimeRegistry, IRenderMimeRegistry>();

/** `rendermime` with the untrusted sanitizer, made once per registry. */
function untrusted(rendermime: IRenderMimeRegistry): IRenderMimeRegistry {
  let registry = untrustedRegistries.get(rendermime);
  if (!registry) {
    registry = rendermime.clone({ sanitizer: untrustedSanitizer });
    untrustedRegistries.set(rendermime, registry);
  }
  return registry;
}

/** Render `text` into `host`, replacing what was there (reST roles as Sphinx shows them). */
export async function renderMarkdown(
  rendermime: IRenderMimeRegistry,
  host: HTMLElement,
  text: string
): Promise<void> {
  const renderer = untrusted(rendermime).createRenderer(MIME);
  const model = new MimeModel({ data: { [MIME]: withoutRestRoles(text) }, trusted: false });
  await renderer.renderModel(model);
  host.replaceChildren(...Array.from(renderer.node.childNodes));
  renderer.dispose();
}
