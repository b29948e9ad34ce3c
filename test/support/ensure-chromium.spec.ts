import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT } from './process';

const SCRIPT = path.join(ROOT, 'scripts', 'ensure-chromium.js');

/** Runs the set-up with a PATH of only `sh` (and whatever `extra` commands are given). */
function ensure(chromiumAt: string, extra: Record<string, string> = {}) {
  const bin = mkdtempSync(path.join(tmpdir(), 'ensure-chromium-'));
  try {
    symlinkSync(
      spawnSync('sh', ['-c', 'command -v sh'], { encoding: 'utf8' }).stdout.trim(),
      path.join(bin, 'sh'),
    );
    for (const [name, body] of Object.entries(extra)) {
      writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(path.join(bin, name), 0o755);
    }
    return spawnSync(process.execPath, [SCRIPT], {
      env: { PATH: bin, ENSURE_CHROMIUM_AT: chromiumAt },
      encoding: 'utf8',
    });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

/**
 * `npm test` on a fresh machine: the browser tests need Chromium, and the README's one command
 * sets it up or stops before any test with one line naming the command to run.
 */
describe('the test command sets up Chromium', () => {
  it('runs the set-up before every `npm test`, and CI runs exactly `npm ci` then `npm test`', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.pretest).toBe('node scripts/ensure-chromium.js');
    const commands = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#') && !/^(set|cd) /.test(line));
    expect(commands).toEqual(['npm ci', 'npm test']);
  });

  it('does nothing when Chromium is there', () => {
    const run = ensure(process.execPath);
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('without Chromium and without apt-get, stops with one line naming the install command', () => {
    const run = ensure('/nonexistent/chromium');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('apt-get install -y chromium');
  });

  // The install branch is taken only as root.
  (process.getuid?.() === 0 ? it : it.skip)(
    'when the install fails, stops with one line naming the command instead of running the tests',
    () => {
      const run = ensure('/nonexistent/chromium', {
        'apt-get': 'echo "E: Unable to locate package chromium" >&2; exit 100',
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('apt-get update && apt-get install -y chromium');
    },
  );
});
