// Two browser bundles built from what tsc wrote to lib/ (the sidebar is the third front
// end, built by jupyter-builder). Both land in the Python package, not committed; the
// wheel ships them.
// - the chat page `athena serve` answers at / (docs/chat-page.md);
// - the drop-in widget a docs site embeds, served at /athena/widget.js (same doc,
//   "Drop-in widget").
const path = require('path');

const common = { mode: 'production', devtool: false, performance: { hints: false } };

module.exports = [
  {
    ...common,
    name: 'page',
    entry: './lib/page/main.js',
    output: { path: path.resolve(__dirname, '../athena_lab/static/page'), filename: 'page.js' }
  },
  {
    ...common,
    name: 'dropin',
    entry: './lib/dropin/main.js',
    output: { path: path.resolve(__dirname, '../athena_lab/static/dropin'), filename: 'widget.js' }
  }
];
