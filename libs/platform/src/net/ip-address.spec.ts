import {
  formatIpAddress,
  formatIpRange,
  parseCidr,
  parseIpAddress,
  parseIpv4,
  parseIpv6,
  rangeContains,
  unmapIpv4,
} from './ip-address';

describe('IPv4 parsing', () => {
  it.each([
    ['0.0.0.0', 0n],
    ['127.0.0.1', 0x7f000001n],
    ['255.255.255.255', 0xffffffffn],
    ['203.0.113.9', 0xcb007109n],
  ])('%s', (text, value) => expect(parseIpv4(text)).toBe(value));

  it.each([
    ['', 'empty'],
    ['1.2.3', 'three parts'],
    ['1.2.3.4.5', 'five parts'],
    ['256.0.0.1', 'octet above 255'],
    ['01.2.3.4', 'leading zero (octal to some parsers)'],
    ['0x7f.0.0.1', 'hex octet'],
    ['1.2.3.-4', 'sign'],
    ['1.2.3.4 ', 'trailing space'],
    ['1..3.4', 'empty octet'],
  ])('refuses %j (%s)', (text) => expect(parseIpv4(text)).toBeNull());
});

describe('IPv6 parsing', () => {
  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['2001:db8::', 0x20010db8n << 96n],
    ['2001:DB8:0:0:0:0:0:1', (0x20010db8n << 96n) | 1n],
    ['1:2:3:4:5:6:7::', 0x00010002000300040005000600070000n],
    ['::2:3:4:5:6:7:8', 0x00000002000300040005000600070008n],
    ['::ffff:10.0.0.1', 0xffff0a000001n],
    ['1:2:3:4:5:6:1.2.3.4', 0x00010002000300040005000601020304n],
  ])('%s', (text, value) => expect(parseIpv6(text)).toBe(value));

  it.each([
    ['1:2:3:4:5:6:7', 'seven groups'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1:2:3:4:5:6:7:8::', '`::` standing for no group'],
    ['1::2::3', 'two `::`'],
    [':1::', 'single leading colon'],
    ['1:::2', 'triple colon'],
    ['12345::', 'five hex digits'],
    ['fe80::1%eth0', 'zone id'],
    ['1.2.3.4::', 'IPv4 before `::`'],
    ['::ffff:256.0.0.1', 'bad embedded IPv4'],
    ['g::1', 'not hex'],
  ])('refuses %j (%s)', (text) => expect(parseIpv6(text)).toBeNull());
});

describe('address formatting (RFC 5952)', () => {
  it.each([
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'], // the longer run wins
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // the first of equal runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // a single zero group stays
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['10.1.2.3', '10.1.2.3'],
  ])('%s → %s', (text, formatted) => expect(formatIpAddress(parseIpAddress(text)!)).toBe(formatted));
});

describe('IPv4-mapped IPv6 addresses', () => {
  it('unmaps ::ffff:a.b.c.d to IPv4', () =>
    expect(unmapIpv4(parseIpAddress('::ffff:127.0.0.1')!)).toEqual({ family: 4, value: 0x7f000001n }));

  it('leaves other IPv6 addresses alone', () =>
    expect(unmapIpv4(parseIpAddress('::7f00:1')!)).toEqual({ family: 6, value: 0x7f000001n }));
});

describe('CIDR parsing', () => {
  const ok = (text: string) => {
    const parsed = parseCidr(text);
    if (!parsed.ok) throw new Error(`${text} refused: ${parsed.message}`);
    return formatIpRange(parsed.range);
  };

  it.each([
    ['203.0.113.0/24', '203.0.113.0/24'],
    ['203.0.113.7', '203.0.113.7/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:DB8:0::/32', '2001:db8::/32'],
    ['2001:db8::1', '2001:db8::1/128'],
    ['::/0', '::/0'],
    ['::ffff:10.0.0.1', '10.0.0.1/32'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:0:0/96', '0.0.0.0/0'],
  ])('%s → %s', (text, normalized) => expect(ok(text)).toBe(normalized));

  it.each([
    ['1.2.3.4/24', 'host bits set'],
    ['2001:db8::1/32', 'host bits set (v6)'],
    ['::ffff:0:0/80', 'mapped marker in host bits'],
    ['10.0.0.0/33', 'prefix above 32'],
    ['2001:db8::/129', 'prefix above 128'],
    ['10.0.0.0/', 'empty prefix'],
    ['10.0.0.0/-1', 'negative prefix'],
    ['10.0.0.0/08', 'prefix with a leading zero'],
    ['10.0.0.0/8/8', 'two slashes'],
    ['10.0.0.0/ 8', 'space in the prefix'],
    ['example.com', 'a host name'],
    ['', 'empty'],
  ])('refuses %j (%s)', (text) => expect(parseCidr(text).ok).toBe(false));
});

describe('range membership', () => {
  const range = (text: string) => {
    const parsed = parseCidr(text);
    if (!parsed.ok) throw new Error(text);
    return parsed.range;
  };

  it.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['0.0.0.0/0', '198.51.100.1', true],
    ['203.0.113.7/32', '203.0.113.7', true],
    ['203.0.113.7/32', '203.0.113.8', false],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::/0', '10.0.0.1', false], // families never mix
  ])('%s contains %s: %s', (cidr, address, expected) =>
    expect(rangeContains(range(cidr), parseIpAddress(address)!)).toBe(expected),
  );
});
