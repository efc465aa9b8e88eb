import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import checkFile from 'eslint-plugin-check-file';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Every client feature, so that a new one is fenced off from the others without editing this. */
const root = import.meta.dirname;
const features = readdirSync(path.join(root, 'src/client/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Which code may import which, by resolved path (so `@/…`, `@shared/…` and relative imports alike).
 * Each layer imports only the ones before it: src/shared; then the server, or the client's lib/ and
 * components/; then one feature; then app/.
 */
const zones = [
  {
    target: './src/shared',
    from: './',
    except: ['./src/shared', './node_modules'],
    message: 'src/shared is imported by server and client; it imports nothing outside itself.',
  },
  {
    target: './src/server',
    from: './src/client',
    message: 'The server never imports client code (shared code lives in src/shared).',
  },
  {
    target: './src/client',
    from: './src/server',
    message: 'The client never imports server code (shared code lives in src/shared).',
  },
  {
    target: ['./src/client/lib', './src/client/components'],
    from: ['./src/client/features', './src/client/app'],
    message: 'lib/ and components/ are used by features and app/, never the other way round.',
  },
  {
    target: './src/client/features',
    from: './src/client/app',
    message: 'A feature does not import app/ (routes and layouts compose the features).',
  },
  ...features.map((feature) => ({
    target: `./src/client/features/${feature}`,
    from: './src/client/features',
    except: [`./${feature}`],
    message:
      'Features do not import each other: compose them in app/, or move the code to lib/ or components/.',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'data', 'coverage', 'node_modules', 'e2e/artifacts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.{js,ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: path.join(root, 'tsconfig.json') }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones, basePath: root }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'tests/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // File names: kebab-case (`api-client.ts`, `code-input.test.tsx`), except the .tsx files of a
  // components/ or layouts/ folder, which hold components and are named after the main one in
  // PascalCase (`ProductCard.tsx`), and migrations, named `NNN_name` as the database records them.
  {
    files: ['**/*.{js,ts,tsx}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '**/': 'KEBAB_CASE' }],
    },
  },
  {
    // ADR 013: the shared zod schemas load on demand (a loader given to apiRequest or useZodForm),
    // except in the signed-in app's form screens (create, edit, profile, password) and their
    // requests, which need theirs before the first validation anyway. Types are free everywhere.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: [
      'src/client/features/profile/**',
      'src/client/features/products/components/{CreateProduct,EditProduct,ImagePicker}.tsx',
      'src/client/features/products/api/{create,update}-product.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@shared/schemas/*'],
              allowTypeImports: true,
              message:
                'Load shared schemas on demand (lib/lazy-schemas.ts, or () => import(...)): ADR 013.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/{components,layouts}/**/*.tsx'],
    rules: {
      'check-file/filename-naming-convention': ['error', { '**/*': 'PASCAL_CASE' }],
    },
  },
  {
    files: ['src/server/db/migrations/*.ts'],
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': '[0-9][0-9][0-9]_+([a-z0-9_])' },
      ],
    },
  },
);
