// One flat config for every workspace (docs/architecture.md, Conventions).
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
      ],
    },
  },
  {
    files: [
      'apps/web/src/config/env.ts',
      'apps/web/src/**/__tests__/**',
      'apps/web/src/testing/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
