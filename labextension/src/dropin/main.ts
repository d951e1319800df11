/**
 * Entry of the drop-in bundle (athena_lab/static/dropin/widget.js), served at
 * /athena/widget.js. A docs site adds
 *   <script src="https://host/athena/widget.js" data-athena-url="https://host" defer></script>
 * and gets the floating chat; the data- attributes configure it (dropin/config.ts).
 */
import { readConfig } from './config';
import { DropinWidget } from './widget';

function ownScript(): HTMLScriptElement | null {
  // currentScript is set while a classic script (also with defer/async) runs.
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) {
    return current;
  }
  return document.querySelector<HTMLScriptElement>('script[src*="athena/widget.js"]');
}

function start(script: HTMLScriptElement | null): void {
  if (document.querySelector('athena-dropin')) {
    return; // the tag was included twice
  }
  const config = readConfig({ ...(script?.dataset ?? {}) }, script?.src ?? '', document.baseURI, value =>
    CSS.supports('color', value)
  );
  const widget = new DropinWidget(config);
  // A custom element name no page styles by tag; everything visible is in its shadow root.
  const host = document.createElement('athena-dropin');
  document.body.append(host);
  widget.mount(host);
}

const script = ownScript();
if (document.body) {
  start(script);
} else {
  document.addEventListener('DOMContentLoaded', () => start(script), { once: true });
}
