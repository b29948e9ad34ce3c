/**
 * IPv4 and IPv6 addresses and CIDR ranges as big integers. Parsed by hand because the domains using it may
 * not import node:net, and because the rules here are deliberately stricter than the OS parsers:
 * no octal or shorthand IPv4 forms, no zone ids, no leading zeros in prefix lengths.
 */
export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  value: bigint;
}

export interface IpRange {
  family: IpFamily;
  /** The first address of the range: host bits are always zero. */
  network: bigint;
  prefix: number;
}

export const ADDRESS_BITS: Readonly<Record<IpFamily, number>> = { 4: 32, 6: 128 };

// `010` is 8 to inet_aton and 10 to a human: an ambiguous octet is refused, not guessed.
const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
const PREFIX_LENGTH = /^(?:0|[1-9][0-9]{0,2})$/;

export function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!DECIMAL_OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

/** RFC 4291 text forms, including `::` compression and a trailing embedded IPv4 address. */
export function parseIpv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  // An embedded IPv4 address may only close the whole address, never precede `::`.
  if (halves.length === 2 && halves[0].includes('.')) return null;
  const head = hexGroups(halves[0]);
  const tail = halves.length === 2 ? hexGroups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function hexGroups(part: string): number[] | null {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (index === pieces.length - 1 && piece.includes('.')) {
      const v4 = parseIpv4(piece);
      if (v4 === null) return null;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (HEX_GROUP.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

export function parseIpAddress(text: string): IpAddress | null {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === null ? null : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === null ? null : { family: 4, value };
}

/** `::ffff:a.b.c.d` is an IPv4 peer seen through an IPv6 socket; it is that IPv4 address. */
export function unmapIpv4(address: IpAddress): IpAddress {
  if (address.family === 6 && address.value >> 32n === 0xffffn) {
    return { family: 4, value: address.value & 0xffffffffn };
  }
  return address;
}

export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((address.value >> shift) & 0xffn)).join('.');
  }
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) =>
    Number((address.value >> shift) & 0xffffn),
  );
  // RFC 5952: compress the longest run of two or more zero groups, the first one on a tie.
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > best.length) best = { start, length: end - start };
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.length < 2) return hex.join(':');
  const left = hex.slice(0, best.start).join(':');
  const right = hex.slice(best.start + best.length).join(':');
  return `${left}::${right}`;
}

export function formatIpRange(range: IpRange): string {
  return `${formatIpAddress({ family: range.family, value: range.network })}/${range.prefix}`;
}

function hostMask(family: IpFamily, prefix: number): bigint {
  return (1n << BigInt(ADDRESS_BITS[family] - prefix)) - 1n;
}

export type CidrParse = { ok: true; range: IpRange } | { ok: false; message: string };

/**
 * A CIDR range or a bare address (a single-address range, /32 or /128). Host bits beyond the
 * prefix are refused rather than masked away: `1.2.3.4/24` is more likely a typo for a /32 than
 * a wish to allow 256 addresses, and silently widening an allowlist is the wrong failure.
 * IPv4-mapped IPv6 ranges (`::ffff:10.0.0.1`) are rewritten as the IPv4 range they stand for.
 */
export function parseCidr(text: string): CidrParse {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const address = parseIpAddress(addressText);
  if (!address) return { ok: false, message: 'must be an IPv4 or IPv6 address or CIDR range' };
  const bits = ADDRESS_BITS[address.family];
  let prefix = bits;
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX_LENGTH.test(prefixText) || Number(prefixText) > bits) {
      return { ok: false, message: `prefix length must be a whole number from 0 to ${bits}` };
    }
    prefix = Number(prefixText);
  }
  const mask = hostMask(address.family, prefix);
  if ((address.value & mask) !== 0n) {
    const network = formatIpRange({ family: address.family, network: address.value & ~mask, prefix });
    return {
      ok: false,
      message: `has host bits set beyond /${prefix}: use ${network}, or /${bits} for the single address`,
    };
  }
  const range: IpRange = { family: address.family, network: address.value, prefix };
  // Host bits zero and the ::ffff: marker present means the prefix is at least 96.
  const unmapped = unmapIpv4(address);
  if (unmapped.family === 4 && address.family === 6) {
    return { ok: true, range: { family: 4, network: unmapped.value, prefix: prefix - 96 } };
  }
  return { ok: true, range };
}

export function rangeContains(range: IpRange, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  return (address.value & ~hostMask(range.family, range.prefix)) === range.network;
}
