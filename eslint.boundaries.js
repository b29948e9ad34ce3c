// @ts-check
const fs = require('node:fs');
const path = require('node:path');

/**
 * Context boundaries (docs/adr/0005-one-command-path-and-boundaries.md). Every lib but `platform` is reached
 * from outside only through its `src/index.ts` (`import … from '…/merchants/src'`); a pure
 * domain file reaches another context only through that context's `src/domain/index.ts`, so no
 * Nest or I/O comes along. `platform` is the shared toolbox: anyone imports its folders, and it
 * imports no other lib. Tests may reach inside (they build fixtures from the inner pieces).
 */
const LIBS = fs.readdirSync(path.join(__dirname, 'libs')).filter((d) => d !== 'platform');
const HAS_DOMAIN = new Set(
  LIBS.filter((d) => fs.existsSync(path.join(__dirname, 'libs', d, 'src', 'domain'))),
);
const PURE_DOMAIN = ['@nestjs/*', 'typeorm', 'pg', 'node:*', '*/http/*', '*/application/*'];
const TESTS = ['**/*.spec.ts', '**/*.e2e.ts', '**/testing/**', '**/contract/**'];

function throughIndex(others) {
  return {
    regex: `(^|/)(${others.join('|')})/src/.+$`,
    message: 'Import another context only through its index: …/<context>/src.',
  };
}
function throughDomainIndex(others) {
  const withDomain = others.filter((d) => HAS_DOMAIN.has(d));
  return [
    {
      regex: `(^|/)(${others.join('|')})/src/(?!domain$).+$`,
      message: 'A domain reaches another context only through …/<context>/src/domain (its pure index).',
    },
    ...(withDomain.length
      ? [
          {
            regex: `(^|/)(${withDomain.join('|')})/src$`,
            message:
              'A domain imports …/<context>/src/domain, not the context index (which brings Nest along).',
          },
        ]
      : []),
  ];
}
const boundaries = [
  ...LIBS.flatMap((own) => {
    const others = LIBS.filter((d) => d !== own);
    const domainFiles =
      own === 'page-config' ? [`libs/${own}/src/**/*.ts`] : [`libs/${own}/src/domain/**/*.ts`];
    return [
      {
        files: [`libs/${own}/src/**/*.ts`],
        ignores: [...domainFiles, ...TESTS],
        rules: { 'no-restricted-imports': ['error', { patterns: [throughIndex(others)] }] },
      },
      {
        files: domainFiles,
        ignores: TESTS,
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                { group: PURE_DOMAIN, message: 'The domain is pure: no Nest, no database, no I/O.' },
                ...throughDomainIndex(others),
              ],
            },
          ],
        },
      },
    ];
  }),
  {
    files: ['apps/**/*.ts', 'projections/**/*.ts', 'bench/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [throughIndex(LIBS)] }] },
  },
  {
    files: ['libs/platform/src/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `(^|/)(${LIBS.join('|')})/src(/|$)`, message: 'platform imports no other lib.' },
          ],
        },
      ],
    },
  },
];

module.exports = { boundaries };
