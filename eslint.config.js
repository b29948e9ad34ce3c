// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

// Context boundaries (docs/adr/0005-one-command-path-and-boundaries.md), shared with their test.
const { boundaries } = require('./eslint.boundaries');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // Time comes from the Clock port; only the clock itself may read the machine's time.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read time from the Clock port, not Date.now().',
        },
      ],
    },
  },
  ...boundaries,
  {
    // The domain is pure: no Nest, no database, no I/O (imports: in `boundaries` above).
    files: ['libs/*/src/domain/**/*.ts', 'libs/page-config/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Time arrives with the command.',
        },
      ],
    },
  },
  {
    files: ['libs/platform/src/clock/**', 'bench/**', 'scripts/**', '**/*.spec.ts', '**/*.e2e.ts', 'test/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
