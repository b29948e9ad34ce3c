import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PROBLEM_STATUS } from '../../../../libs/platform/src/problem';
import { PROBLEM_CATALOG } from './problem-catalog';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sources(full);
    return /\.ts$/.test(name) && !/\.(spec|e2e)\.ts$/.test(name) && !full.includes('/testing/') ? [full] : [];
  });
}

/** Every code an error of the service can carry, read from the code as written. */
function codesInSources(): Set<string> {
  const codes = new Set(Object.keys(PROBLEM_STATUS));
  const patterns = [
    /readonly code = '([a-z_]+)'/g,
    /problem\(\s*\d{3},\s*'([a-z_]+)'/g,
    /new NotFound\(\s*'([a-z_]+)'/g,
    /super\(\s*'([a-z_]+_not_found)'/g,
    /deny\(\s*\d{3},\s*'([a-z_]+)'/g,
  ];
  for (const file of [...sources(path.join(ROOT, 'libs')), ...sources(path.join(ROOT, 'apps'))]) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) codes.add(match[1]);
  }
  return codes;
}

describe('the problem catalog', () => {
  it('explains every code an error can carry', () => {
    const missing = [...codesInSources()].filter((code) => !PROBLEM_CATALOG[code]).sort();
    expect(missing).toEqual([]);
  });

  it('finds the codes it checks (the scan is not vacuous)', () => {
    const found = codesInSources();
    for (const code of [
      'merchant_not_found',
      'amount_exceeds_refundable',
      'request_timeout',
      'ip_not_allowed',
    ]) {
      expect(found.has(code)).toBe(true);
    }
  });

  it('says for each code what happened and what to do', () => {
    for (const d of Object.values(PROBLEM_CATALOG)) {
      expect(d.meaning.length).toBeGreaterThan(10);
      expect(d.action.length).toBeGreaterThan(5);
    }
  });
});
