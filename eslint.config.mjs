// ESLint (typescript-eslint, type-aware) over the Node side, the renderer and the tests; part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// A time is made by a checked producer (shared/time.ts), never asserted into the type (issue 26).
const ISO_TIME_ASSERTION = {
  selector: "TSAsExpression[typeAnnotation.typeName.name='IsoTime'], TSTypeAssertion[typeAnnotation.typeName.name='IsoTime']",
  message: 'Make a time with toIsoUtc, isoTimeOf, isoFromMs, isoFromDate, nowIso or the isIsoUtc guard; never `as IsoTime`.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'build/**', 'node_modules/**', 'test-results/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', '**/*.cjs', '**/*.mjs', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Promises are awaited, returned, or marked `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // No unused code: imports, variables, parameters (a leading _ says "unused on purpose").
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Types come in through `import type` (verbatimModuleSyntax relies on it; the layering reads it).
      // `import('x').T` stays allowed in annotations: the vectors room names LanceDB's types that way
      // so that LanceDB itself loads only on first use.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Rules of recommendedTypeChecked that fight validated-at-the-edge code: data is checked by zod,
      // then typed; values from JSON.parse or a driver row are `any` until they are.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': ['error', ISO_TIME_ASSERTION],
    },
  },
  {
    // React props are destructured by convention; their callbacks are plain functions, never methods
    // that use `this`, so separating them from the props object is what components do.
    files: ['renderer/src/**/*.tsx'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // A test that is always skipped is a placeholder counted as a test: skip real tests by a
    // condition (it.skipIf, describe.skipIf) and say why, or delete them.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(skip|todo)$/]", message: 'No placeholder skips: use skipIf with a reason, or remove the test.' },
        ISO_TIME_ASSERTION,
      ],
    },
  },
);
