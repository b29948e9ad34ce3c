import { formatIpRange, parseCidr, parseIpAddress } from './ip-address';
import { SPECIAL_ADDRESS_RANGES, specialAddressKind } from './special-addresses';

describe('special address table', () => {
  it.each(SPECIAL_ADDRESS_RANGES.map((row) => [row.cidr]))('%s is a canonical CIDR range', (cidr) => {
    const parsed = parseCidr(cidr);
    expect(parsed.ok && formatIpRange(parsed.range)).toBe(cidr);
  });

  it('lets only loopback through in sandbox', () =>
    expect(SPECIAL_ADDRESS_RANGES.filter((row) => row.sandbox).map((row) => row.kind)).toEqual([
      'loopback',
      'loopback',
    ]));

  it.each([
    ['8.8.8.8', null],
    ['2001:4860:4860::8888', null],
    ['100.63.255.255', null],
    ['100.64.0.0', 'shared'],
    ['169.254.169.254', 'link_local'],
    ['::ffff:192.168.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link_local'],
  ])('%s is %s', (address, kind) =>
    expect(specialAddressKind(parseIpAddress(address)!)?.kind ?? null).toBe(kind),
  );
});
