import {
  EMBEDDING_DOMAINS_MAX,
  frameAncestorsDirective,
  mergeEmbeddingDomains,
  normalizeDomain,
  normalizeEmbeddingDomains,
  parseEmbeddingDomain,
  validateEmbeddingDomainEntries,
  validateEmbeddingDomains,
  type HppEnvironment,
} from './embedding-domains';

const fields = (errors: { field: string }[]) => errors.map((e) => e.field);
const label63 = 'a'.repeat(63);
/** A name of exactly `length` characters: labels of at most 63 joined by dots, ending in `.com`. */
function nameOfLength(length: number): string {
  const labels: string[] = [];
  let remaining = length - 3; // "com"; every label brings its dot
  while (remaining > 0) {
    const size = Math.min(63, remaining - 1);
    labels.push('b'.repeat(size));
    remaining -= size + 1;
  }
  const name = `${labels.join('.')}.com`;
  if (name.length !== length) throw new Error(`helper built ${name.length}, not ${length}`);
  return name;
}

describe('one embedding domain', () => {
  // [entry, stored form in sandbox, stored form in production]; null = refused
  const cases: [unknown, string | null, string | null][] = [
    ['example.com', 'example.com', 'example.com'],
    ['Shop.Example.COM', 'shop.example.com', 'shop.example.com'],
    ['*.example.com', '*.example.com', '*.example.com'],
    ['*.Example.com', '*.example.com', '*.example.com'],
    ['*.shop.example.co.uk', '*.shop.example.co.uk', '*.shop.example.co.uk'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['shop.xn--p1ai', 'shop.xn--p1ai', 'shop.xn--p1ai'],
    ['a-b.example.com', 'a-b.example.com', 'a-b.example.com'],
    ['r3---sn-abc.googlevideo.com', 'r3---sn-abc.googlevideo.com', 'r3---sn-abc.googlevideo.com'],
    ['1password.com', '1password.com', '1password.com'],
    ['123.example.com', '123.example.com', '123.example.com'],
    [`${label63}.com`, `${label63}.com`, `${label63}.com`],
    [nameOfLength(253), nameOfLength(253), nameOfLength(253)],
    ['localhost', 'localhost', null],
    ['LocalHost', 'localhost', null],
    ['app.localhost', 'app.localhost', null],
    ['*.localhost', null, null],
    // not a bare host name
    ['https://example.com', null, null],
    ['http://example.com', null, null],
    ['//example.com', null, null],
    ['example.com/path', null, null],
    ['example.com/', null, null],
    ['example.com:8443', null, null],
    ['localhost:3000', null, null],
    ['example.com?x=1', null, null],
    ['example.com#top', null, null],
    ['user@example.com', null, null],
    ['user:pass@example.com', null, null],
    // wildcards
    ['*', null, null],
    ['*.com', null, null],
    ['*.*.example.com', null, null],
    ['a.*.example.com', null, null],
    ['*example.com', null, null],
    ['ex*ample.com', null, null],
    ['example.*', null, null],
    ['**.example.com', null, null],
    // grammar
    ['com', null, null],
    ['intranet', null, null],
    ['.example.com', null, null],
    ['example..com', null, null],
    ['example.com.', null, null],
    ['-example.com', null, null],
    ['example-.com', null, null],
    ['exa_mple.com', null, null],
    ['exa mple.com', null, null],
    [' example.com', null, null],
    ['example.com ', null, null],
    ['example.com\n', null, null],
    ['example.com\t', null, null],
    ['example.com\u0000', null, null],
    ['xn--', null, null],
    [`${'a'.repeat(64)}.com`, null, null],
    [nameOfLength(254), null, null],
    ['', null, null],
    ['bücher.de', null, null],
    ['ex\u0430mple.com', null, null], // Cyrillic a
    ['example\u3002com', null, null], // ideographic full stop
    // IP literals
    ['127.0.0.1', null, null],
    ['203.0.113.10', null, null],
    ['example.123', null, null],
    ['[::1]', null, null],
    ['::1', null, null],
    ['2001:db8::1', null, null],
    ['[2001:db8::1]', null, null],
    // CSP injection
    ["example.com 'unsafe-inline'", null, null],
    ['example.com; script-src *', null, null],
    ['example.com;script-src', null, null],
    ['example.com,evil.com', null, null],
    ["'self'", null, null],
    ["'none'", null, null],
    ['data:', null, null],
    ['https:', null, null],
    ['*.example.com\r\nSet-Cookie: x=1', null, null],
    ['example.com"><script>alert(1)</script>', null, null],
    // not a string
    [42, null, null],
    [null, null, null],
    [{ host: 'example.com' }, null, null],
  ];

  const environments: HppEnvironment[] = ['sandbox', 'production'];
  describe.each(environments)('in %s', (environment) => {
    it.each(
      cases.map(([entry, sandbox, production]) => [
        JSON.stringify(entry),
        entry,
        environment === 'sandbox' ? sandbox : production,
      ]),
    )('%s', (_shown, entry, expected) => {
      const parsed = parseEmbeddingDomain(entry, environment);
      expect(parsed.ok ? parsed.domain : null).toBe(expected);
    });
  });

  it('explains each refusal', () => {
    const parsed = parseEmbeddingDomain('https://example.com', 'production');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).not.toBe('');
  });

  it('normalises case', () => expect(normalizeDomain('Shop.EXAMPLE.com')).toBe('shop.example.com'));

  it('never lets through anything but host-name characters, whatever it is given', () => {
    for (const [entry] of cases) {
      for (const environment of environments) {
        const parsed = parseEmbeddingDomain(entry, environment);
        if (parsed.ok) expect(parsed.domain).toMatch(/^(\*\.)?[a-z0-9.-]+$/);
      }
    }
  });
});

describe('an embedding-domain list', () => {
  const many = (n: number, prefix = 'shop') =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}.example.com`);

  it('accepts an empty list (no site may frame the page)', () =>
    expect(validateEmbeddingDomains([], 'domains', 'production')).toEqual([]));

  it(`accepts ${EMBEDDING_DOMAINS_MAX} distinct domains`, () =>
    expect(validateEmbeddingDomains(many(EMBEDDING_DOMAINS_MAX), 'domains', 'production')).toEqual([]));

  it(`refuses ${EMBEDDING_DOMAINS_MAX + 1} distinct domains`, () =>
    expect(
      fields(validateEmbeddingDomains(many(EMBEDDING_DOMAINS_MAX + 1), 'domains', 'production')),
    ).toEqual(['domains']));

  it('counts after removing duplicates (case-insensitively)', () => {
    const list = [
      ...many(EMBEDDING_DOMAINS_MAX),
      'SHOP0.example.com',
      'shop1.example.com',
      'Shop2.Example.Com',
    ];
    expect(validateEmbeddingDomains(list, 'domains', 'production')).toEqual([]);
  });

  it('names each bad entry by its index', () =>
    expect(
      fields(
        validateEmbeddingDomains(
          ['ok.example.com', 'https://x.com', 'fine.example', 7],
          'domains',
          'sandbox',
        ),
      ),
    ).toEqual(['domains[1]', 'domains[3]']));

  it('refuses localhost in production only', () => {
    expect(fields(validateEmbeddingDomains(['localhost'], 'domains', 'production'))).toEqual(['domains[0]']);
    expect(validateEmbeddingDomains(['localhost'], 'domains', 'sandbox')).toEqual([]);
  });

  it.each([
    ['a string', 'example.com'],
    ['an object', { domains: ['example.com'] }],
    ['null', null],
    ['undefined', undefined],
  ])('refuses %s instead of an array', (_what, input) =>
    expect(fields(validateEmbeddingDomains(input, 'domains', 'sandbox'))).toEqual(['domains']),
  );

  it('checks entries without the count when asked for entries only', () => {
    expect(validateEmbeddingDomainEntries(many(30), 'domains', 'production')).toEqual([]);
    expect(fields(validateEmbeddingDomainEntries(['*.com'], 'domains', 'production'))).toEqual([
      'domains[0]',
    ]);
  });

  it('normalises: lower-cased, first occurrence kept, order otherwise as written', () =>
    expect(
      normalizeEmbeddingDomains(
        ['B.example.com', 'a.example.com', 'b.EXAMPLE.com', '*.Example.com'],
        'production',
      ),
    ).toEqual(['b.example.com', 'a.example.com', '*.example.com']));

  it('merges: the current list, then the new ones', () =>
    expect(
      mergeEmbeddingDomains(['a.example.com', 'b.example.com'], ['c.example.com', 'a.example.com']),
    ).toEqual(['a.example.com', 'b.example.com', 'c.example.com']));
});

describe('frame-ancestors', () => {
  it('allows only the platform itself when the list is empty', () => {
    expect(frameAncestorsDirective([], 'production')).toBe("frame-ancestors 'self'");
    expect(frameAncestorsDirective([], 'sandbox')).toBe("frame-ancestors 'self'");
  });

  it('uses https on the default port in production', () =>
    expect(frameAncestorsDirective(['shop.example.com', '*.example.org'], 'production')).toBe(
      "frame-ancestors 'self' https://shop.example.com https://*.example.org",
    ));

  it('allows http, https and any port in sandbox', () =>
    expect(frameAncestorsDirective(['localhost', 'shop.example.com'], 'sandbox')).toBe(
      "frame-ancestors 'self' http://localhost:* https://localhost:* http://shop.example.com:* https://shop.example.com:*",
    ));

  it('leaves out anything that is not a valid domain, even if it got stored', () =>
    expect(
      frameAncestorsDirective(
        ["evil.com 'unsafe-inline'", 'x.com; script-src *', 'ok.example.com', 'localhost', '*'],
        'production',
      ),
    ).toBe("frame-ancestors 'self' https://ok.example.com"));
});
