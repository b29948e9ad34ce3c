/** One jest run for every test: domain, integration (embedded PostgreSQL), e2e and browser. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/projections', '<rootDir>/test'],
  // The crash tests (test/chaos/) are part of the one run: CI calls exactly `npm test`.
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts', '**/*.chaos.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // dinero.js ships ESM only; jest's CommonJS loader takes the package's own UMD build instead.
  moduleNameMapper: {
    '^dinero\\.js/bigint$': '<rootDir>/node_modules/dinero.js/dist/umd/bigint/index.production.js',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
};
