import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
    files: ['src/client/**/*.{ts,tsx}', 'tests/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Features do not import each other; shared code flows one way (shared → features → app).
    files: ['src/client/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*/**', '../../*/**'],
              message: 'Features must not import each other.',
            },
          ],
        },
      ],
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
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/client/**'],
              message: 'shared/ imports nothing of server or client.',
            },
          ],
        },
      ],
    },
  },
);
