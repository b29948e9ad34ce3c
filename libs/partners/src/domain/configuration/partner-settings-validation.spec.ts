import {
  IP_ALLOWLIST_MAX_ENTRIES,
  normalizeAcceptedMethods,
  normalizeIpAllowlist,
  parseAllowlistEntry,
  validateAcceptedMethods,
  validateIpAllowlist,
  validatePartnerSettings,
  validateWebhookUrl,
  type Environment,
} from './partner-settings-validation';

const fields = (errors: { field: string }[]) => errors.map((e) => e.field);

describe('webhook_url', () => {
  // [url, allowed in sandbox, allowed in production]
  const cases: [string, boolean, boolean][] = [
    ['', true, true], // clears it
    ['https://hooks.example.com/payments', true, true],
    ['https://hooks.example.com:8443/p?partner=1', true, true],
    ['https://203.0.113.10/hook', true, true],
    ['https://[2001:db8::10]/hook', true, true],
    ['http://hooks.example.com/payments', true, false],
    ['http://localhost:4000/hooks', true, false],
    ['http://LOCALHOST./hooks', true, false],
    ['http://api.localhost/hooks', true, false],
    ['http://127.0.0.1:4000/hooks', true, false],
    ['https://127.0.0.1/hooks', true, false],
    ['https://127.1.2.3/hooks', true, false],
    ['https://2130706433/hooks', true, false], // 127.0.0.1 as one number
    ['https://0177.0.0.1/hooks', true, false], // 127.0.0.1 in octal
    ['https://[::1]/hooks', true, false],
    ['https://[::ffff:127.0.0.1]/hooks', true, false],
    ['https://10.0.0.5/hooks', false, false],
    ['https://172.16.0.1/hooks', false, false],
    ['https://172.31.255.255/hooks', false, false],
    ['https://192.168.1.10/hooks', false, false],
    ['https://169.254.169.254/latest/meta-data', false, false],
    ['https://100.100.100.200/latest', false, false],
    ['https://0.0.0.0/hooks', false, false],
    ['https://224.0.0.1/hooks', false, false],
    ['https://255.255.255.255/hooks', false, false],
    ['https://[fd00:ec2::254]/hooks', false, false],
    ['https://[fe80::1]/hooks', false, false],
    ['https://[::]/hooks', false, false],
    ['https://[::ffff:10.0.0.1]/hooks', false, false],
    ['https://[ff02::1]/hooks', false, false],
    ['https://intranet/hooks', true, false], // single label: search domains
    ['https://172.32.0.1/hooks', true, true], // just outside 172.16/12
    ['https://user:secret@hooks.example.com/', false, false],
    ['https://user@hooks.example.com/', false, false],
    ['https://@hooks.example.com/', false, false],
    ['https://hooks.example.com/#section', false, false],
    ['https://hooks.example.com/#', false, false],
    ['ftp://hooks.example.com/', false, false],
    ['javascript:alert(1)', false, false],
    ['/relative/path', false, false],
    ['hooks.example.com/payments', false, false],
    ['https://hooks.example.com/a b', false, false],
    [' https://hooks.example.com/', false, false],
    ['https://hooks.example.com/\n', false, false],
    [`https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, true, true],
    [`https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}`, false, false],
  ];

  describe.each(['sandbox', 'production'] as Environment[])('in %s', (environment) => {
    it.each(
      cases.map(([url, sandbox, production]) => [url, environment === 'sandbox' ? sandbox : production]),
    )('%j allowed: %s', (url, allowed) => {
      const errors = validateWebhookUrl(url as string, environment);
      expect(errors.length === 0).toBe(allowed);
      for (const error of errors) expect(error.field).toBe('webhook_url');
    });
  });

  it('reports every broken rule at once', () =>
    expect(validateWebhookUrl('http://u:p@10.0.0.1/#x', 'production')).toHaveLength(4));
});

describe('ip_allowlist', () => {
  it.each([
    ['203.0.113.0/24', '203.0.113.0/24'],
    ['203.0.113.7', '203.0.113.7/32'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:DB8:0:0::/32', '2001:db8::/32'],
    ['2001:db8::7', '2001:db8::7/128'],
    ['::ffff:10.0.0.1', '10.0.0.1/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('accepts %s as %s', (entry, cidr) => expect(parseAllowlistEntry(entry)).toEqual({ ok: true, cidr }));

  it.each<[unknown, string]>([
    ['1.2.3.4/24', 'host bits set'],
    ['10.0.0.0/33', 'IPv4 prefix above 32'],
    ['2001:db8::/129', 'IPv6 prefix above 128'],
    ['2001:db8::1/32', 'IPv6 host bits set'],
    ['10.0.0.0/-1', 'negative prefix'],
    ['256.1.1.1', 'octet above 255'],
    ['010.0.0.1', 'ambiguous octal octet'],
    ['10.0.0.1 ', 'trailing space'],
    ['fe80::1%eth0', 'zone id'],
    ['example.com', 'a host name'],
    ['', 'empty'],
    [42, 'not a string'],
  ])('refuses %j (%s) with its index in the field', (entry) =>
    expect(fields(validateIpAllowlist(['203.0.113.0/24', '198.51.100.0/24', entry]))).toEqual([
      'ip_allowlist[2]',
    ]),
  );

  it('accepts the empty list (it clears the allowlist)', () => expect(validateIpAllowlist([])).toEqual([]));

  it(`accepts ${IP_ALLOWLIST_MAX_ENTRIES} entries and refuses ${IP_ALLOWLIST_MAX_ENTRIES + 1}`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i}.0/24`);
    expect(validateIpAllowlist(list(IP_ALLOWLIST_MAX_ENTRIES))).toEqual([]);
    expect(fields(validateIpAllowlist(list(IP_ALLOWLIST_MAX_ENTRIES + 1)))).toEqual(['ip_allowlist']);
  });

  it('normalises, then removes duplicates, keeping the first occurrence and the order', () =>
    expect(
      normalizeIpAllowlist([
        '198.51.100.7',
        '2001:DB8::/32',
        '198.51.100.7/32',
        '::ffff:198.51.100.7',
        '2001:db8::/32',
      ]),
    ).toEqual(['198.51.100.7/32', '2001:db8::/32']));
});

describe('hpp_settings.accepted_methods', () => {
  it.each([
    [['credit_card']],
    [['credit_card', 'debit_card']],
    [['ach']],
    [['ach', 'debit_card', 'credit_card']],
  ])('accepts %j', (methods) => expect(validateAcceptedMethods(methods)).toEqual([]));

  it.each([
    [[], ['hpp_settings.accepted_methods']],
    [['credit_card', 'paypal'], ['hpp_settings.accepted_methods[1]']],
    [['card'], ['hpp_settings.accepted_methods[0]']],
    [['CREDIT_CARD'], ['hpp_settings.accepted_methods[0]']],
    [['credit_card', 'debit_card', 'credit_card'], ['hpp_settings.accepted_methods[2]']],
    [[null], ['hpp_settings.accepted_methods[0]']],
  ])('refuses %j at %j', (methods, expected) =>
    expect(fields(validateAcceptedMethods(methods))).toEqual(expected),
  );

  it('stores the set in one canonical order', () =>
    expect(normalizeAcceptedMethods(['ach', 'debit_card', 'credit_card'])).toEqual([
      'credit_card',
      'debit_card',
      'ach',
    ]));
});

describe('a whole settings update', () => {
  it('checks nothing that is null or omitted', () =>
    expect(
      validatePartnerSettings({
        webhookUrl: null,
        ipAllowlist: null,
        acceptedMethods: null,
        environment: 'production',
      }),
    ).toEqual([]));

  it('reports the broken rules of every field together', () =>
    expect(
      fields(
        validatePartnerSettings({
          webhookUrl: 'http://hooks.example.com',
          ipAllowlist: ['10.0.0.0/33'],
          acceptedMethods: [],
          environment: 'production',
        }),
      ),
    ).toEqual(['webhook_url', 'ip_allowlist[0]', 'hpp_settings.accepted_methods']));
});
