// One flat config for every workspace (docs/architecture.md, Conventions).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const tests = ['**/__tests__/**', '**/*.test.{ts,tsx}'];

// Import boundaries (docs/architecture.md): app/ → features/ → components/,
// hooks/, lib/ in the web app; routes/ → repositories/ → db/ in the API. The
// type-aware variant of no-restricted-imports lets `import type` through where
// a pattern says so: a type import is erased and adds no runtime edge.
const restrict = (...patterns) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});
const noApp = [
  {
    regex: '^@/app/store$',
    allowTypeImports: true,
    message:
      'Only types may come from app/store; the store is composed in app/.',
  },
  {
    regex: '^@/app(?!/store$)(/|$)',
    message: 'app/ composes the features; nothing below it imports app/.',
  },
];
// What one feature may import from another, and nothing else: its RTK Query
// endpoints (`<feature>/<name>-api`) and the auth feature's session surface,
// which every member feature needs: `auth-slice` (selectors, `loggedOut`),
// `auth-session` (`renewSession`) and `access-token` (freshness check), used
// by the chat socket. Components, other slices, hooks and helpers stay private
// to their feature: shared code moves to components/ or lib/.
const crossFeatureAllowed = [
  '[^/]+/[^/]+-api',
  'auth/auth-slice',
  'auth/auth-session',
  'auth/access-token',
];
const pgliteMessage =
  'Open PGlite through apps/api/src/db/pglite.ts (newPglite), which loads the extensions the migrations install.';
const webFeatures = readdirSync(
  new URL('apps/web/src/features', import.meta.url),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'apps/web/dist-*/**',
      '**/node_modules/**',
      'apps/api/drizzle/**',
      'apps/web/android/**',
      'apps/web/ios/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_' },
      ],
    },
  },
  // Type-checked rules on application source only (not tests, e2e or
  // scripts), which keeps `npm run lint` time reasonable.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    ignores: [...tests, 'apps/web/src/testing/**'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Fastify plugins, hooks and handlers are async by contract (an async
      // plugin needs no done callback) even where their body awaits nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // RTK hands its lifecycle and listener helpers (dispatch, getState,
    // updateCachedData, …) as closures bound to the store; destructuring them
    // is the documented use, not a lost `this`.
    files: ['apps/web/src/**/*-api.ts', 'apps/web/src/app/store.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Environment is read in one place only (docs/architecture.md, Conventions).
      // `import.meta` is a MetaProperty, not an object with a property, so
      // no-restricted-properties could never fire: match the syntax itself.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MetaProperty[meta.name='import'][property.name='meta']",
          message: 'Read configuration through src/config/env.ts.',
        },
        // A page's first Intl object loads ICU's data: a collator about 25 ms
        // of main thread, a ja-JP number format 12–18 ms (measured in
        // Chromium on this project's machines; four times that on a throttled
        // phone), in the long task that happens to use it first.
        {
          // Called, read (`.call`, a reference) or named as a string key.
          selector:
            'MemberExpression[property.name=/^toLocale(String|DateString|TimeString)$/], MemberExpression[property.value=/^toLocale(String|DateString|TimeString)$/]',
          message:
            'Format with lib/format.ts (groupDigits, formatDate, …): the first Intl use of a page costs tens of ms of main thread.',
        },
        {
          selector:
            "MemberExpression[property.name='localeCompare'], MemberExpression[property.value='localeCompare']",
          message:
            'Sort ASCII keys (dates, times, ULIDs) with compareCodeUnits from lib/compare.ts: localeCompare creates an ICU collator.',
        },
        {
          // Any value use of Intl (`Intl.X`, `const { X } = Intl`, `globalThis.Intl`); its types stay allowed.
          selector: ":not(TSQualifiedName) > Identifier[name='Intl']",
          message:
            'The first Intl object of a page costs tens of ms of main thread: format with lib/format.ts.',
        },
      ],
    },
  },
  {
    files: [
      'apps/web/src/config/env.ts',
      ...tests.map((t) => `apps/web/src/${t}`),
      'apps/web/src/testing/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    ignores: tests,
    rules: restrict(
      {
        regex: `^@/features/(?!${feature}/)(?!(?:${crossFeatureAllowed.join('|')})$)`,
        message: `Another feature's internals: import only its *-api endpoints or auth's session modules (eslint.config.js, crossFeatureAllowed).`,
      },
      ...noApp,
      {
        regex: '^\\.\\./\\.\\./',
        message:
          'Relative imports stay inside the feature; use @/ for the rest.',
      },
    ),
  })),
  {
    files: ['apps/web/src/{components,hooks,lib}/**/*.{ts,tsx}'],
    ignores: tests,
    rules: restrict(
      {
        regex: '^(@/|(\\.\\./)+)features(/|$)',
        message:
          'components/, hooks/ and lib/ are shared: they never import features/.',
      },
      ...noApp,
      {
        regex: '^(\\.\\./)+app(/|$)',
        message: 'app/ composes the features; nothing below it imports app/.',
      },
    ),
  },
  {
    // A data folder holds pg_trgm's index (migration 0019): opened without the
    // extension it can neither write a pro nor search, so PGlite is opened
    // in one place, with its extensions.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['apps/api/src/db/pglite.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@electric-sql/pglite', message: pgliteMessage }],
          patterns: [
            { group: ['@electric-sql/pglite/*'], message: pgliteMessage },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/repositories/**/*.ts'],
    rules: restrict({
      regex: '^(\\.{1,2}/)+(routes|plugins)/',
      message:
        'Repositories sit below routes and plugins: they never import them.',
    }),
  },
  {
    files: ['apps/api/src/db/**/*.ts'],
    rules: restrict({
      regex: '^(\\.{1,2}/)+(routes|repositories|plugins)/',
      message:
        'db/ sits below everything that queries it: it never imports routes, repositories or plugins.',
    }),
  },
  {
    files: ['apps/api/src/lib/**/*.ts'],
    rules: restrict({
      regex: '^(\\.{1,2}/)+(routes|repositories|plugins)/',
      message:
        'lib/ is shared by every layer: it never imports routes, repositories or plugins.',
    }),
  },
  {
    files: ['apps/api/src/routes/**/*.ts'],
    rules: restrict(
      {
        regex: '^(\\.{1,2}/)+db/schema(\\.js)?$',
        message:
          'Only repositories speak SQL: reach the data through app.repos.',
      },
      {
        regex: '^drizzle-orm(/|$)',
        message:
          'Only repositories speak SQL: reach the data through app.repos.',
      },
    ),
  },
);
