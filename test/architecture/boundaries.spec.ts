import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import * as tseslint from 'typescript-eslint';

/**
 * The context boundaries (docs/adr/0005-one-command-path-and-boundaries.md) are lint rules; this
 * runs them inside `npm test`, so a change that imports across a boundary fails the one command CI
 * runs, not only `npm run lint`. Only the import rules run here (the whole lint, formatting
 * included, takes a minute and a half).
 */
const ROOT = path.join(__dirname, '..', '..');
const { boundaries } = require(path.join(ROOT, 'eslint.boundaries.js')) as {
  boundaries: ESLint.Options['overrideConfig'][];
};

function importLinter(): ESLint {
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      { ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**'] },
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as never } },
      ...(boundaries as never[]),
    ],
  });
}

describe('context boundaries', () => {
  jest.setTimeout(120_000);

  it('hold in every lib, app, projection and bench file', async () => {
    // Files named one by one: ESLint's own glob loads a module jest's loader cannot.
    const files = execFileSync('git', ['ls-files', 'libs', 'apps', 'projections', 'bench'], { cwd: ROOT })
      .toString()
      .split('\n')
      // Tests may reach inside (eslint.boundaries.js): only the code they test is checked.
      .filter((f) => f.endsWith('.ts') && !/\.(spec|e2e|chaos)\.ts$/.test(f))
      .map((f) => path.join(ROOT, f));
    const results = await importLinter().lintFiles(files);
    // Only the import rule: other rules' disable comments name rules this linter does not load.
    const broken = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.message}`),
    );
    expect(results.length).toBeGreaterThan(300);
    expect(broken).toEqual([]);
  });

  it.each([
    [
      'a deep import into another context',
      'libs/recurring/src/application/x.ts',
      "import { a } from '../../../merchants/src/domain/merchant';",
    ],
    [
      'platform importing another lib',
      'libs/platform/src/http/x.ts',
      "import { a } from '../../../event-store/src';",
    ],
    [
      'a domain importing another context by its Nest index',
      'libs/recurring/src/domain/x.ts',
      "import { a } from '../../../merchants/src';",
    ],
    [
      'a domain importing Nest',
      'libs/recurring/src/domain/x.ts',
      "import { Injectable } from '@nestjs/common';",
    ],
    [
      'an app file reaching inside a context',
      'apps/api/src/x.ts',
      "import { a } from '../../../libs/merchants/src/http/merchants.controller';",
    ],
  ])('refuse %s', async (_, filePath, code) => {
    const [result] = await importLinter().lintText(`${code}\nexport const b = a;\n`, {
      filePath: path.join(ROOT, filePath),
    });
    expect(result.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
  });

  it('allow an import through the context index', async () => {
    const [result] = await importLinter().lintText(
      "import { MerchantReader } from '../../../merchants/src';\nexport const b = MerchantReader;\n",
      { filePath: path.join(ROOT, 'libs/recurring/src/application/x.ts') },
    );
    expect(result.messages).toEqual([]);
  });
});
