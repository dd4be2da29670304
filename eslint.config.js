// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-bench/', 'coverage/', 'test-results/', 'renderer/vendor/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests read JSON bodies and files whose shape the assertions check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The server must run without Electron (headless `npm start`); shared/ is also bundled for the page.
    files: ['server/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron', 'electron-updater'] }],
    },
  },
  {
    // The API's shapes depend on zod alone: the page and the tests import them without the server.
    files: ['server/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\./[\\w-]+\\.js$)',
              message: 'server/contract/ imports only zod and itself.',
            },
          ],
        },
      ],
    },
  },
);
