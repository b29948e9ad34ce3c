// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

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
  {
    // The domain is pure: no Nest, no database, no I/O.
    files: ['libs/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@nestjs/*', 'typeorm', 'pg', 'node:*', '*/http/*', '*/application/*'] },
      ],
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
