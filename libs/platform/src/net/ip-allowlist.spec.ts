import { AllowlistCache, compileAllowlist, ipAllowed } from './ip-allowlist';

describe('ipAllowed', () => {
  it('allows everyone when the list is empty', () => {
    expect(ipAllowed('198.51.100.1', [])).toBe(true);
    expect(ipAllowed('2001:db8::1', [])).toBe(true);
  });

  it.each([
    // [remote, allowlist, allowed]
    ['203.0.113.9', ['203.0.113.0/24'], true],
    ['203.0.114.9', ['203.0.113.0/24'], false],
    ['203.0.113.9', ['203.0.113.9/32'], true],
    ['203.0.113.10', ['203.0.113.9/32'], false],
    ['203.0.113.9', ['203.0.113.9'], true], // a bare address is a single-address range
    ['10.1.2.3', ['192.168.0.0/16', '10.0.0.0/8'], true],
    ['198.51.100.1', ['0.0.0.0/0'], true],
    ['2001:db8:1::5', ['2001:db8::/32'], true],
    ['2001:db9::5', ['2001:db8::/32'], false],
    ['2001:DB8::5', ['2001:db8::/32'], true],
    ['2001:db8::5', ['2001:db8::5/128'], true],
    ['::1', ['::1/128'], true],
    ['::1', ['127.0.0.0/8'], false], // IPv6 loopback is not IPv4 loopback
    // IPv4 peers on a dual-stack socket
    ['::ffff:127.0.0.1', ['127.0.0.0/8'], true],
    ['::FFFF:203.0.113.9', ['203.0.113.0/24'], true],
    ['::ffff:7f00:1', ['127.0.0.0/8'], true], // the hex spelling of ::ffff:127.0.0.1
    ['::ffff:10.0.0.1', ['192.168.0.0/16'], false],
    ['127.0.0.1', ['::ffff:127.0.0.0/104'], true], // a mapped entry matches plain IPv4 too
    ['127.0.0.1', ['::ffff:7f00:0/104'], true],
    ['::ffff:7f00:1', ['::ffff:127.0.0.0/104'], true],
    ['::ffff:10.0.0.1', ['::/0'], false], // an IPv4 peer is not "any IPv6 client"
    ['::ffff:10.0.0.1', ['::ffff:0:0/96'], true],
    // families do not mix
    ['10.0.0.1', ['::/0'], false],
    ['2001:db8::1', ['0.0.0.0/0'], false],
    // forms a proxy or socket may report
    ['[2001:db8::1]', ['2001:db8::/32'], true],
    ['fe80::1%eth0', ['fe80::/10'], true],
    // garbage in: denied
    ['', ['0.0.0.0/0'], false],
    ['not-an-ip', ['0.0.0.0/0'], false],
    ['unknown', ['::/0'], false],
  ])('%s against %j: %s', (remote, allowlist, allowed) => expect(ipAllowed(remote, allowlist)).toBe(allowed));

  it('skips malformed entries without opening the list (fails closed)', () => {
    expect(ipAllowed('10.0.0.1', ['10.0.0.0/33', 'example.com', '10.0.0.0/x'])).toBe(false);
    expect(ipAllowed('10.0.0.1', ['garbage', '10.0.0.0/8'])).toBe(true);
  });
});

describe('compiled matchers', () => {
  it('compiles a list once and answers many times', () => {
    const allowed = compileAllowlist(['203.0.113.0/24', '2001:db8::/32']);
    expect(['203.0.113.1', '2001:db8::1', '198.51.100.1'].map(allowed)).toEqual([true, true, false]);
  });

  it('caches by list, bounded, dropping the least recently used', () => {
    const cache = new AllowlistCache(2);
    const a = cache.matcher(['10.0.0.0/8']);
    expect(cache.matcher(['10.0.0.0/8'])).toBe(a);
    cache.matcher(['192.168.0.0/16']);
    cache.matcher(['10.0.0.0/8']); // a is now the most recent
    cache.matcher(['172.16.0.0/12']); // evicts 192.168.0.0/16
    expect(cache.size).toBe(2);
    expect(cache.matcher(['10.0.0.0/8'])).toBe(a);
    expect(cache.matcher(['10.0.0.0/8'])('10.9.9.9')).toBe(true);
  });

  it('keys by the list itself: a different list gets a different matcher', () => {
    const cache = new AllowlistCache();
    expect(cache.matcher(['10.0.0.0/8'])).not.toBe(cache.matcher(['10.0.0.0/16']));
  });
});
