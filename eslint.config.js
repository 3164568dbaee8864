// Lint: typescript-eslint's type-aware rules (promises that are dropped or misused are the bugs
// this codebase can least afford: a money move that is not awaited), React's hooks rules, and
// the recommended sets. Formatting is Prettier's job (npm run format:check), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Fastify handlers and hooks may be async without awaiting; a plain value is fine there.
      '@typescript-eslint/require-await': 'off',
      // Its autofix removed casts the compiler needs (TypeBox and ajv generics): a style rule, off.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Tests and fixtures cast freely; the code under test is what is checked.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
