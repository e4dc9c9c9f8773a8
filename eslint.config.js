import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default defineConfig(
  {
    ignores: [
      'dist/',
      '.astro/',
      'node_modules/',
      'uploads/',
      'data/',
      'db/*.sqlite*',
      '.tmp/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // Browser-side code never imports server modules (docs/architecture.md): they would drag Node-only
    // code, or secrets, into a bundle. Shared, browser-safe code lives in src/shared.
    files: [
      'src/components/**/*.{ts,tsx}',
      'src/client/**/*.{ts,tsx}',
      'src/editor/**/*.{ts,tsx}',
      'src/stores/**/*.{ts,tsx}',
      'src/shared/**/*.{ts,tsx}',
      'src/layouts/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)server(/|$)',
              message:
                'Browser-side code must not import src/server; move what it needs to src/shared (or call it through src/client/api.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The service worker (public/sw.js) and its helper run in the worker's global scope.
    files: ['public/sw*.js'],
    languageOptions: {
      globals: {
        self: 'readonly',
        caches: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        importScripts: 'readonly',
      },
    },
  },
);
