import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { assign, expectedLines, fencedBlocks, readDoc, ROOT, runBash, UUID } from '../support/guide';
import {
  buildOnce,
  startProcess,
  stopAndRemove,
  waitForHealth,
  type ServiceProcess,
} from '../support/process';

const GUIDE = 'docs/guides/partner-quickstart.md';
/**
 * docs/guides/partner-quickstart.md, run as written against the service started as `npm start`
 * starts it, on an empty data directory: the operator key is the one the first start printed,
 * the receiver is the guide's own file, and the webhook must arrive and pass its signature check.
 */
describe('the partner quickstart guide', () => {
  let dataRoot: string;
  let service: ServiceProcess | null = null;

  beforeAll(() => {
    buildOnce();
    dataRoot = mkdtempSync(path.join(tmpdir(), 'partner-quickstart-'));
    chmodSync(dataRoot, 0o755); // the embedded server may run as the `postgres` user
  }, 120_000);
  afterAll(() => stopAndRemove(service, dataRoot), 60_000);

  it('takes a partner from the operator key to a verified transaction.approved webhook', async () => {
    const blocks = fencedBlocks(readDoc(GUIDE));

    // The two steps the test does its own way: it starts the service (no `npm ci` on the test
    // machine: node_modules is installed), and it lends the receiver the standardwebhooks package
    // the repository already has instead of installing it from the registry.
    const skipped = blocks.filter((b) => b.marker === 'skip').map((b) => b.code.trim());
    expect(skipped).toEqual([
      'npm ci && npm start',
      'npm init -y >/dev/null && npm install standardwebhooks',
    ]);
    const port = await freePort();
    service = startProcess({ PORT: String(port), DATA_DIR: path.join(dataRoot, 'data') });
    await waitForHealth(`http://127.0.0.1:${port}`, service);
    const printed = /^ {4}(cop_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{24,})$/m.exec(service.stdout());
    expect(printed).not.toBeNull();

    const partnerDir = path.join(dataRoot, 'partner');
    mkdirSync(partnerDir);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(partnerDir, 'node_modules'), 'dir');
    for (const block of blocks.filter((b) => b.marker?.startsWith('file '))) {
      writeFileSync(path.join(partnerDir, block.marker!.slice('file '.length)), block.code);
    }

    const script = blocks
      .filter((b) => b.lang === 'sh' && !b.marker)
      .map((b) => b.code)
      .join('\n');
    const result = await runBash(
      assign(script, {
        BASE: `http://127.0.0.1:${port}/api/v1`,
        OP: printed![1],
        HOOK_PORT: String(await freePort()),
      }),
      { cwd: partnerDir },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    // Every answer the guide shows is what the service answered.
    for (const line of expectedLines(blocks)) expect(result.stdout).toMatch(line);
    // The webhook is the SALE's own, it passed verification, and the forged request did not.
    const sale = new RegExp(`^sale (${UUID}) CAPTURED$`, 'm').exec(result.stdout)?.[1];
    expect(sale).toBeDefined();
    expect(result.stdout).toMatch(
      new RegExp(`^webhook verified: transaction.approved ${sale} CAPTURED$`, 'm'),
    );
    expect(result.stdout.match(/^webhook verified:/gm)).toHaveLength(1);
    expect(result.stdout).toMatch(/^delivery SUCCEEDED$/m);
    expect(result.stdout.match(/^webhook refused:/gm)).toHaveLength(1);
    expect(result.stdout).toMatch(/^forged request: 400$/m);
  }, 180_000);
});
