import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { OPERATOR_KEY, useTestPlatform } from '../support/api';
import { assign, expectedLines, fencedBlocks, readDoc, ROOT, runBash } from '../support/guide';
import { activeMerchant, charge, CHECKING, draftMerchant, vaultedCredential } from '../support/payments';
import { buildOnce } from '../support/process';

const GUIDE = 'docs/guides/operator-guide.md';

/**
 * docs/guides/operator-guide.md, every command in order, against the real app with a partner, a
 * submitted merchant, a captured SALE and a submitted ACH debit in it; `npm run ops` runs as the
 * guide says, on the service's database. Any HTTP error answer fails the run (curl is made to fail
 * on one), as does any command that fails; the answers the guide shows must be the answers given.
 */
describe('the operator guide', () => {
  const platform = useTestPlatform();
  let dataDir: string;

  beforeAll(() => {
    buildOnce();
    dataDir = mkdtempSync(path.join(tmpdir(), 'operator-guide-'));
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs every command of the guide, and names every command of the CLI', async () => {
    const { operator, service } = platform();
    const partner = await platform().newPartner();
    const submitted = await draftMerchant(partner, 'Harbor Books');
    expect((await partner.client.post(`/merchants/${submitted}/submit`)).status).toBe(200);
    const active = await activeMerchant(operator, partner);
    const card = await vaultedCredential(platform(), partner, active);
    const sale = await charge(partner, active, card.vaultToken);
    expect(sale.state).toBe('CAPTURED');
    await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true });
    const bank = await vaultedCredential(platform(), partner, active, { instrument: CHECKING });
    const ach = await charge(partner, active, bank.vaultToken, { type: 'ACH_DEBIT', amount: '40.00' });
    expect(ach.state).toBe('SUBMITTED');

    const blocks = fencedBlocks(readDoc(GUIDE));
    expect(blocks.filter((b) => b.marker)).toEqual([]); // nothing is left out
    const script = blocks
      .filter((b) => b.lang === 'sh')
      .map((b) => b.code)
      .join('\n');
    // Only here: an HTTP error answer stops the run like a failing command.
    const strictCurl = 'curl() { command curl --fail-with-body "$@"; }\n';
    const result = await runBash(
      strictCurl +
        assign(script, {
          BASE: `${service.url}/api/v1`,
          OP: OPERATOR_KEY,
          PARTNER: partner.id,
          MERCHANT: submitted,
          SALE: sale.id,
          ACH: ach.id,
        }),
      { cwd: ROOT, env: { DATABASE_URL: service.infra.databaseUrl, DATA_DIR: dataDir } },
    );
    if (result.code !== 0) throw new Error(`the guide stopped (${result.code}):\n${result.stderr}`);
    for (const line of expectedLines(blocks)) expect(result.stdout).toMatch(line);

    // The guide runs every command the CLI has (its own --help lists them).
    const commands = /^commands:\n([\s\S]*?)\n\n/m.exec(result.stdout)![1].match(/^ {2}(\w+)/gm)!;
    expect(commands.length).toBeGreaterThan(3);
    for (const command of commands.map((c) => c.trim())) {
      expect(script).toMatch(new RegExp(`^npm run ops -- ${command}\\b`, 'm'));
    }
  }, 300_000);
});
