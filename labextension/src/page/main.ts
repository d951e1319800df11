/**
 * Entry of the chat page bundle (athena_lab/static/page/page.js), loaded by index.html
 * with `defer`: the CSP allows no inline script, so everything starts here.
 */
import { ChatPage } from './app';

const page = new ChatPage();
document.getElementById('athena-app')?.replaceWith(page.node);
void page.start();
