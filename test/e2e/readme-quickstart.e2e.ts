import { OPERATOR_KEY, useTestPlatform } from '../support/api';
import { assign, readDoc, runBash } from '../support/guide';

/** The README's partner quickstart, run as written (only BASE and OP point at this service). */
function quickstart(base: string): string {
  const readme = readDoc('README.md');
  const block = /<!-- partner-quickstart -->\s*```sh\n([\s\S]*?)```\s*<!-- \/partner-quickstart -->/.exec(
    readme,
  );
  if (!block) throw new Error('README has no partner-quickstart block');
  return assign(block[1], { BASE: base, OP: OPERATOR_KEY });
}

describe('README partner quickstart', () => {
  const platform = useTestPlatform();

  it('works when pasted into a shell', async () => {
    const result = await runBash(quickstart(`${platform().service.url}/api/v1`));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const partnerId = /^partner ([0-9a-f-]{36})$/m.exec(result.stdout)?.[1];
    expect(partnerId).toBeDefined();
    expect(result.stdout).toContain('"name":"Acme Software"'); // /partner/me answered
    expect(result.stdout).toContain('"certification_status":"PENDING"');
    expect(result.stdout).toContain('"overall":"operational"');
    expect(result.stdout).toContain('"flag_name":"ach_payments","partner_id"');
    expect(result.stdout).toContain('"webhook_url":"http://127.0.0.1:9000/webhooks"');
    for (const type of [
      'PartnerCreated',
      'ApiKeyIssued',
      'FeatureFlagChanged',
      'PartnerSettingsChanged',
      'CertificationFlowStarted',
    ]) {
      expect(result.stdout).toContain(`"type":"${type}"`);
    }
    // Taking a payment: onboarding to ACTIVE, the hosted page, a saved card charged again, a refund.
    expect(result.stdout).toMatch(/^ACTIVE$/m);
    expect(result.stdout).toMatch(/^payer sees 303 -> .*\/result$/m);
    expect(result.stdout).toMatch(/^CAPTURED$/m);
    expect(result.stdout).toContain('"type":"PARTIAL_REFUND"');
    expect(result.stdout).toContain('"state":"PARTIALLY_REFUNDED"');
    // A subscription: created ACTIVE from tomorrow; a day later its first installment is charged,
    // a transaction like any other (the newest of the merchant's list), and it waits for next month.
    const contractId = /^contract ([0-9a-f-]{36})$/m.exec(result.stdout)?.[1];
    expect(contractId).toBeDefined();
    const contract = result.stdout
      .split('\n')
      .map((line) => (line.startsWith('{"id":"' + contractId) ? JSON.parse(line) : null))
      .find(Boolean);
    expect(contract).toMatchObject({
      state: 'ACTIVE',
      amount: '9.99',
      amount_paid: '9.99',
      frequency: 'MONTHLY',
      use_type: 'RECURRING',
    });
    expect(contract.last_successful_charge_date).toBe(contract.start_date);
    expect(contract.next_charge_date > contract.start_date).toBe(true);
    const lists = result.stdout.split('\n').filter((line) => line.startsWith('{"data":['));
    const newest = JSON.parse(lists[lists.length - 1]).data[0];
    expect(newest).toMatchObject({
      type: 'SALE',
      amount: 999,
      state: 'CAPTURED',
      merchant_name: 'Corner Bakery',
    });
    expect(result.stdout).not.toContain('4111111111111111"'); // the card number never comes back
    expect(result.stdout).not.toContain('"status":4'); // no problem answers anywhere
    expect(result.stdout).not.toContain('"status":5');
  });
});
