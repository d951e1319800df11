// The chat page `athena serve` answers at / (docs/chat-page.md): one script bundled from
// what tsc wrote to lib/page/, into the Python package (not committed; the wheel ships it).
const path = require('path');

module.exports = {
  mode: 'production',
  entry: './lib/page/main.js',
  output: {
    path: path.resolve(__dirname, '../athena_lab/static/page'),
    filename: 'page.js'
  },
  devtool: false,
  performance: { hints: false }
};
