import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { useTestPlatform } from '../support/api';
import { fencedBlocks, readDoc, ROOT, runBash } from '../support/guide';
import { activeMerchant, charge, vaultedCredential } from '../support/payments';
import { buildOnce } from '../support/process';
import { WebhookReceiver } from '../support/webhook-receiver';

const GUIDE = 'docs/guides/analyst-guide.md';

/** A document's `### \`name\`` sections: the relation each describes, and its text. */
function relationSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = markdown.split(/^(?=#{1,3} )/m);
  for (const part of parts) {
    const name = /^### `([a-z_.]+)`/.exec(part)?.[1];
    if (name) sections.set(name.includes('.') ? name : `public.${name}`, part);
  }
  return sections;
}

/**
 * docs/guides/analyst-guide.md against the real app's database with data in it: the guide's
 * `npm run ops -- sql` gives the read-only connection, every example query runs on it, and the
 * guide describes exactly the tables and views that connection can read, every column of each.
 */
describe('the analyst guide', () => {
  let dataDir: string;
  let receiver: WebhookReceiver;
  let analyst: Client;
  // Declared before the platform's, so it runs before the platform drops the database.
  afterAll(async () => {
    await analyst?.end();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const platform = useTestPlatform();

  beforeAll(async () => {
    buildOnce();
    dataDir = mkdtempSync(path.join(tmpdir(), 'analyst-guide-'));
    receiver = await WebhookReceiver.start();

    // Some of everything: a merchant with a customer, a saved card, a hosted page, a sale settled,
    // reconciled and partly refunded, and a webhook endpoint that received its deliveries.
    const { operator } = platform();
    const partner = await platform().newPartner();
    expect((await partner.client.post('/webhook-endpoints', { url: receiver.url() })).status).toBe(201);
    const merchant = await activeMerchant(operator, partner);
    const customer = await partner.client.post(`/merchants/${merchant}/customers`, {
      email: 'pat@example.test',
      display_name: 'Pat Lee',
    });
    expect(customer.status).toBe(201);
    const card = await vaultedCredential(platform(), partner, merchant, { customerId: customer.body.id });
    const page = await partner.client.post('/hpp/sessions', { merchant_id: merchant, amount: '12.00' });
    expect(page.status).toBe(201);
    const sale = await charge(partner, merchant, card.vaultToken);
    expect(sale.state).toBe('CAPTURED');
    const run = await operator.post('/platform/settlement/run', {});
    const batch = run.body.data[0];
    const report = await operator.post(`/platform/settlement/batches/${batch.id}/processor-report`, {
      lines: [{ transaction_id: sale.id, amount: '25.00', settled_at: batch.created_at }],
      total_amount: '25.00',
      fees: '0.00',
    });
    expect(report.body.state).toBe('RECONCILED');
    const refund = await partner.client.post('/transactions', {
      type: 'PARTIAL_REFUND',
      merchant_id: merchant,
      parent_transaction_id: sale.id,
      amount: '5.00',
    });
    expect(refund.status).toBe(200);
    await receiver.waitFor((received) => received.some((r) => r.envelope.type === 'transaction.refunded'));

    // The guide's own way in.
    const connect = blocks().filter((b) => b.lang === 'sh');
    expect(connect.map((b) => b.code.trim())).toEqual(['npm run ops -- sql']);
    const result = await runBash(connect[0].code, {
      cwd: ROOT,
      env: { DATABASE_URL: platform().service.infra.databaseUrl, DATA_DIR: dataDir },
    });
    expect(result.code).toBe(0);
    const printed = result.stdout.split('\n').find((line) => line.startsWith('{'));
    analyst = new Client({ connectionString: (JSON.parse(printed!) as { url: string }).url });
    await analyst.connect();
  }, 300_000);

  const blocks = () => fencedBlocks(readDoc(GUIDE));

  it('every example query runs read-only, and none can write', async () => {
    const queries = blocks().filter((b) => b.lang === 'sql');
    expect(queries.length).toBeGreaterThan(10);
    for (const query of queries) {
      await analyst.query(query.code).catch((error: Error) => {
        throw new Error(`${error.message}\nin the query under "${query.heading}":\n${query.code}`);
      });
    }
    await expect(analyst.query('delete from transaction_list')).rejects.toThrow(
      /read-only|permission denied/,
    );
  });

  it('describes every table and view the read-only role can read, and every column of each', async () => {
    // information_schema shows a role only the tables and views it has a privilege on.
    const { rows } = await analyst.query<{ name: string; column_name: string }>(
      `select table_schema || '.' || table_name as name, column_name from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema')
        order by table_schema, table_name, ordinal_position`,
    );
    const readable = new Map<string, string[]>();
    for (const row of rows) readable.set(row.name, [...(readable.get(row.name) ?? []), row.column_name]);
    expect(readable.has('event_store.events')).toBe(true);
    expect(readable.has('public.transaction_list')).toBe(true);

    const sections = relationSections(readDoc(GUIDE));
    // The guide links the views to docs/analysts.md, which explains their columns.
    const viewDocs = relationSections(readDoc('docs/analysts.md'));
    const undescribed: string[] = [];
    for (const [name, columns] of readable) {
      const section = sections.get(name);
      if (!section) {
        undescribed.push(name);
        continue;
      }
      const described = section + (viewDocs.get(name) ?? '');
      for (const column of columns)
        if (!described.includes(`\`${column}\``)) undescribed.push(`${name}.${column}`);
    }
    expect(undescribed).toEqual([]);
    // And no section for a table that is gone.
    expect([...sections.keys()].filter((name) => !readable.has(name))).toEqual([]);
  });
});
