import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { sitePathsConfig } from './scripts/site-paths.mjs';

/**
 * An import of one of these `src/server` parts, from anywhere inside `src/server` (a relative path
 * naming the folder, or the root module).
 */
function serverParts(names, why) {
  const folders = names.filter((name) => !name.endsWith('.ts'));
  const modules = names.filter((name) => name.endsWith('.ts')).map((name) => name.replace('.', '\\.'));
  const alternatives = [...folders.map((folder) => `(^|/)${folder}/`), ...modules.map((module) => `(^|/)${module}$`)];
  return { regex: `(${alternatives.join('|')})`, message: why };
}

const PAGES = {
  regex: '(^|/)pages/',
  message: 'Server code must not import src/pages: routes call services, not the other way round.',
};

/**
 * Each server folder's "Must not import" (its README), as lint rules: `folder` is linted with
 * `patterns`. Tests beside the code may reach further (builders, real stores).
 */
function mustNotImport(folder, patterns, { ignores = [] } = {}) {
  return {
    files: [`src/server/${folder}`],
    ignores: ['**/*.test.ts', ...ignores],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

const LAYERS_ABOVE_CONTEXT = [
  'content',
  'auth',
  'page-store',
  'front',
  'uploads',
  'mail',
  'cdn',
  'metrics',
  'ops',
  'seed',
  'import',
];

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
    // No circles: a module never reaches itself through its imports (docs/architecture.md#layers).
    // Type-only imports are skipped by the rule; `npm run lint` also runs scripts/check-imports.ts,
    // which counts them too.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these the rule reads only .js files' imports, and a circle through .ts files passes.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  sitePathsConfig, // public addresses are built by src/shared/site-map/paths.ts only
  // The server folders' "Must not import" sections (each folder's README.md), layer by layer:
  // shared < config, errors < db < api, uploads < context, ports < page-store, mail, cdn < content
  // < auth, seed, import, ops, metrics < front < pages (docs/architecture.md#layers).
  mustNotImport(
    '{context,ports,config,config-error,config-mail,config-cdn,config-limits,config-read,errors,module-file,hit-store}.ts',
    [
      serverParts(
        LAYERS_ABOVE_CONTEXT,
        'The app context and the root modules sit below every service: name a type in ports.ts instead.',
      ),
      PAGES,
    ],
  ),
  mustNotImport('db/**', [
    serverParts(
      [
        'content',
        'auth',
        'api',
        'front',
        'page-store',
        'uploads',
        'mail',
        'cdn',
        'metrics',
        'ops',
        'seed',
        'import',
        'context.ts',
        'ports.ts',
        'bootstrap.ts',
      ],
      'src/server/db must not import anything else from src/server (no services, no HTTP, no page store).',
    ),
    PAGES,
  ]),
  mustNotImport('api/**', [
    serverParts(
      ['content', 'auth', 'mail', 'import', 'seed', 'ops', 'db', 'page-store', 'front', 'uploads'],
      'The endpoint kit stays below the services, db/, page-store/ and front/.',
    ),
    PAGES,
  ]),
  mustNotImport('uploads/**', [
    serverParts(
      ['content', 'auth', 'api', 'front', 'page-store', 'mail', 'cdn', 'metrics', 'ops', 'seed', 'import'],
      'Uploads store files for the services; they know the database and the error catalogue only.',
    ),
    PAGES,
  ]),
  mustNotImport('page-store/**', [
    serverParts(
      ['front', 'content', 'auth', 'import', 'seed', 'ops', 'metrics', 'api', 'uploads', 'mail'],
      'The page store is used by the front server and the services, not the other way round; page sizes and tags come from src/shared/site-map.',
    ),
    PAGES,
  ]),
  mustNotImport('mail/**', [
    serverParts(
      ['api', 'front', 'page-store', 'content', 'auth', 'import', 'seed', 'ops', 'metrics', 'cdn', 'uploads'],
      'Mail may import db/repositories, config and context only.',
    ),
    PAGES,
  ]),
  mustNotImport('cdn/**', [
    serverParts(
      ['content', 'auth', 'front', 'import', 'seed', 'ops'],
      'Shared caches know HTTP and the config, not the services or the front server.',
    ),
    PAGES,
  ]),
  mustNotImport('content/**', [
    serverParts(
      ['front', 'auth', 'import', 'seed', 'ops', 'metrics', 'cdn'],
      'Services must not import the front server or the parts above them.',
    ),
    {
      regex: '(^|/)page-store/(?!site-tags\\.ts$)',
      message: 'Services import only site-tags.ts from the page store (they refresh pages through the app context).',
    },
    PAGES,
  ]),
  mustNotImport('auth/**', [
    serverParts(
      ['front', 'import', 'seed', 'ops', 'metrics', 'cdn'],
      'Auth is a service: it must not import the front server or the parts above it.',
    ),
    PAGES,
  ]),
  mustNotImport('metrics/**', [
    serverParts(
      ['front', 'content', 'auth', 'import', 'seed', 'ops', 'api'],
      'Metrics observe the page store and the context from outside; the front server wires them in.',
    ),
    PAGES,
  ]),
  mustNotImport('ops/**', [
    serverParts(
      ['content', 'auth', 'api', 'front', 'import', 'seed', 'mail', 'metrics', 'cdn'],
      'Backup and restore must not import services, HTTP or the front server.',
    ),
    PAGES,
  ]),
  mustNotImport('seed/**', [
    serverParts(
      ['api', 'front', 'page-store', 'auth', 'import', 'ops', 'metrics', 'cdn'],
      'Seeding runs before any page is stored: no HTTP, page store or front server.',
    ),
    PAGES,
  ]),
  mustNotImport('import/**', [
    serverParts(
      ['front', 'api', 'auth', 'seed', 'ops', 'metrics', 'cdn', 'mail'],
      'The importer may import content/, db/repositories/, uploads/, page-store/site-tags.ts and shared/ only.',
    ),
    { regex: '(^|/)page-store/(?!site-tags\\.ts$)', message: 'The importer takes only site-tags.ts from the page store.' },
    PAGES,
  ]),
  mustNotImport('export/**', [
    serverParts(
      ['front', 'api', 'auth', 'ops', 'metrics', 'cdn', 'mail'],
      'Export and restore work on the database, the uploads and the importer: no HTTP, accounts or front server.',
    ),
    PAGES,
  ]),
  mustNotImport(
    'front/**',
    [
      serverParts(
        ['content', 'import', 'seed'],
        'The front server must not import content services (site.ts starts them; the rest reach them through the app context).',
      ),
      PAGES,
    ],
    // site.ts starts the background services (view counts, the scheduler, the search worker);
    // search-responder.ts reads a /blogs query as the search page does.
    { ignores: ['src/server/front/site.ts', 'src/server/front/search-responder.ts'] },
  ),
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The service worker and its byte bound run in the worker's global scope.
    files: ['src/client/library/service-worker.js', 'src/client/library/sw-lru.js'],
    languageOptions: {
      globals: { self: 'readonly', caches: 'readonly', Request: 'readonly', Response: 'readonly' },
    },
  },
);
