// Lint for the labextension's TypeScript (src/ and test/): the recommended rules of
// ESLint and typescript-eslint. `npm run lint` runs it; `./run lint` and `./run test` too.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // page.webpack.config.js is CommonJS that webpack's node process runs, not extension code.
  { ignores: ['lib/', 'build-test/', 'node_modules/', '*.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' }
  }
);
