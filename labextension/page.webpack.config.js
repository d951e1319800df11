// Three browser bundles built from what tsc wrote to lib/ (the sidebar is the fourth front
// end, built by jupyter-builder). All land in the Python package, not committed; the
// wheel ships them.
// - the chat page `athena serve` answers at / (docs/chat-page.md);
// - the drop-in widget a docs site embeds, served at /athena/widget.js (same doc,
//   "Drop-in widget");
// - the notebook answer widget, an ES module anywidget imports (`export default { render }`),
//   athena_lab/widget.py's `_esm` (docs/notebooks.md, "The answer widget").
const path = require('path');
const webpack = require('webpack');

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
  },
  {
    ...common,
    name: 'widget',
    entry: './lib/widget/widget.js',
    experiments: { outputModule: true },
    output: {
      path: path.resolve(__dirname, '../athena_lab/static'),
      filename: 'widget.js',
      module: true,
      library: { type: 'module' }
    },
    // After minifying (which drops comments): the saved notebook's `_esm` says what it is.
    plugins: [
      new webpack.BannerPlugin({
        banner: '// athena_lab answer widget, built from labextension/src/widget/widget.ts',
        raw: true,
        stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT
      })
    ]
  }
];
