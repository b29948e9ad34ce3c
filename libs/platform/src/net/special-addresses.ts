import { parseCidr, rangeContains, unmapIpv4, type IpAddress, type IpRange } from './ip-address';

/**
 * The addresses a webhook is never sent to (SSRF; loopback is let through in sandbox), as data.
 * Shared by the partners' URL rules (a literal address in `webhook_url`, checked at registration) and the
 * webhook sender (every address a name resolves to, checked at every attempt), which runs on a
 * thread of its own and loads this and ip-address.ts only.
 */
export type AddressKind =
  'unspecified' | 'loopback' | 'private' | 'shared' | 'link_local' | 'multicast' | 'reserved';

/**
 * Literal hosts a webhook may not target: the platform would be posting into its own network
 * (SSRF). Only loopback is let through, and only in sandbox, so partners can test against a local
 * receiver. Private and link-local stay refused in sandbox too: sign-up there is open, and
 * 169.254.169.254 is a cloud metadata service in every environment. Names are resolved and the
 * resolved addresses checked against the same kinds at delivery time, outside the domain.
 */
export const SPECIAL_ADDRESS_RANGES: readonly { cidr: string; kind: AddressKind; sandbox: boolean }[] = [
  { cidr: '0.0.0.0/8', kind: 'unspecified', sandbox: false },
  { cidr: '10.0.0.0/8', kind: 'private', sandbox: false },
  { cidr: '100.64.0.0/10', kind: 'shared', sandbox: false }, // carrier-grade NAT; Alibaba metadata
  { cidr: '127.0.0.0/8', kind: 'loopback', sandbox: true },
  { cidr: '169.254.0.0/16', kind: 'link_local', sandbox: false }, // 169.254.169.254 metadata
  { cidr: '172.16.0.0/12', kind: 'private', sandbox: false },
  { cidr: '192.168.0.0/16', kind: 'private', sandbox: false },
  { cidr: '224.0.0.0/4', kind: 'multicast', sandbox: false },
  { cidr: '240.0.0.0/4', kind: 'reserved', sandbox: false }, // includes 255.255.255.255
  { cidr: '::/128', kind: 'unspecified', sandbox: false },
  { cidr: '::1/128', kind: 'loopback', sandbox: true },
  { cidr: 'fc00::/7', kind: 'private', sandbox: false }, // unique local; AWS fd00:ec2::254 metadata
  { cidr: 'fe80::/10', kind: 'link_local', sandbox: false },
  { cidr: 'fec0::/10', kind: 'private', sandbox: false }, // deprecated site-local
  { cidr: 'ff00::/8', kind: 'multicast', sandbox: false },
];

const SPECIAL_RANGES: readonly { range: IpRange; kind: AddressKind; sandbox: boolean }[] =
  SPECIAL_ADDRESS_RANGES.map(({ cidr, kind, sandbox }) => {
    const parsed = parseCidr(cidr);
    if (!parsed.ok) throw new Error(`bad special range ${cidr}`); // a typo in the table above
    return { range: parsed.range, kind, sandbox };
  });

/** What kind of special address this is, or null for an ordinary public unicast address. */
export function specialAddressKind(address: IpAddress): { kind: AddressKind; sandbox: boolean } | null {
  const unmapped = unmapIpv4(address);
  const hit = SPECIAL_RANGES.find(({ range }) => rangeContains(range, unmapped));
  return hit ? { kind: hit.kind, sandbox: hit.sandbox } : null;
}
