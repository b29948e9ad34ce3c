import { BlockList, isIP } from 'node:net';

/**
 * Matching a caller's address against a partner's `ip_allowlist` (CIDR entries, stored
 * normalised by the partners domain). An empty list means no restriction. Entries that do not
 * parse are skipped, which fails closed: a list of only bad entries admits nobody.
 */
export type AllowlistMatcher = (remoteAddress: string) => boolean;

/** `::ffff:0:0/96`: IPv4 peers as an IPv6 socket reports them, in any spelling. */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

type Family = 'ipv4' | 'ipv6';

/** Brackets and a zone id (`fe80::1%eth0`) are dropped: neither is part of the address. */
function parseAddress(raw: string): { address: string; family: Family } | null {
  let address = raw.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  const family = isIP(address);
  if (family === 0) return null;
  return { address, family: family === 4 ? 'ipv4' : 'ipv6' };
}

/** An address (`10.0.0.7`, `::1`) or a range in CIDR notation (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(entry: string): boolean {
  const slash = entry.indexOf('/');
  const network = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
  if (!network) return false;
  if (slash === -1) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (network.family === 'ipv4' ? 32 : 128);
}

/**
 * Every IPv4 address and range is matched in its IPv4-mapped IPv6 form, so `127.0.0.1`,
 * `::ffff:127.0.0.1` and `::ffff:7f00:1` are one client. IPv4 and the rest of IPv6 are kept in
 * separate lists: BlockList alone would let `::/0` ("any IPv6 client") admit every IPv4 client.
 */
export function compileAllowlist(allowlist: readonly string[]): AllowlistMatcher {
  if (allowlist.length === 0) return () => true;
  const mapped = new BlockList();
  const ipv6 = new BlockList();
  for (const entry of allowlist) {
    const slash = entry.indexOf('/');
    const network = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
    if (!network) continue;
    const bits = network.family === 'ipv4' ? 32 : 128;
    const prefixText = slash === -1 ? String(bits) : entry.slice(slash + 1);
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) continue;
    const prefix = Number(prefixText);
    if (network.family === 'ipv4') {
      mapped.addSubnet(`::ffff:${network.address}`, 96 + prefix, 'ipv6');
    } else if (prefix >= 96 && IPV4_MAPPED.check(network.address, 'ipv6')) {
      mapped.addSubnet(network.address, prefix, 'ipv6');
    } else {
      ipv6.addSubnet(network.address, prefix, 'ipv6');
    }
  }
  return (remoteAddress) => {
    const remote = parseAddress(remoteAddress);
    if (!remote) return false;
    if (remote.family === 'ipv4') return mapped.check(`::ffff:${remote.address}`, 'ipv6');
    if (IPV4_MAPPED.check(remote.address, 'ipv6')) return mapped.check(remote.address, 'ipv6');
    return ipv6.check(remote.address, 'ipv6');
  };
}

/**
 * Compiled matchers keyed by the list itself, so a guard running on every request parses each
 * partner's list once. Bounded: past `maxEntries` the least recently used list is dropped.
 */
export class AllowlistCache {
  private readonly matchers = new Map<string, AllowlistMatcher>();

  constructor(private readonly maxEntries = 1000) {}

  matcher(allowlist: readonly string[]): AllowlistMatcher {
    const key = allowlist.join(',');
    let matcher = this.matchers.get(key);
    if (matcher) {
      this.matchers.delete(key); // re-inserted below as the most recently used
    } else {
      matcher = compileAllowlist(allowlist);
      if (this.matchers.size >= this.maxEntries) {
        const oldest = this.matchers.keys().next().value;
        if (oldest !== undefined) this.matchers.delete(oldest);
      }
    }
    this.matchers.set(key, matcher);
    return matcher;
  }

  get size(): number {
    return this.matchers.size;
  }
}

const shared = new AllowlistCache();

/** Whether `remoteAddress` may call for a partner with this `ip_allowlist`. */
export function ipAllowed(remoteAddress: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  return shared.matcher(allowlist)(remoteAddress);
}
