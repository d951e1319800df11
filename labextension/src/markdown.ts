/**
 * Renders model output and document snippets as Markdown through Lab's own renderer
 * (its Markdown parser, code highlighting and math), always untrusted and through the
 * sidebar's own sanitizer (./sanitizer.ts): nothing a document or a model writes can
 * run, fetch from another host or trigger a Lab command.
 */
import { IRenderMimeRegistry, MimeModel } from '@jupyterlab/rendermime';

import { untrustedSanitizer } from './sanitizer';

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

/** Render `text` into `host`, replacing what was there. */
export async function renderMarkdown(
  rendermime: IRenderMimeRegistry,
  host: HTMLElement,
  text: string
): Promise<void> {
  const renderer = untrusted(rendermime).createRenderer(MIME);
  const model = new MimeModel({ data: { [MIME]: text }, trusted: false });
  await renderer.renderModel(model);
  host.replaceChildren(...Array.from(renderer.node.childNodes));
  renderer.dispose();
}
