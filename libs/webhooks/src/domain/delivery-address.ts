import { parseIpAddress } from '../../../platform/src/net/ip-address';
import { specialAddressKind } from '../../../platform/src/net/special-addresses';

/**
 * Why a delivery may not connect to `address` (an IPv4 or IPv6 address as resolved, mapped forms
 * included), or null when it may: the special-address table the URL rules use (url-rules.ts), for
 * every address a name resolves to at every attempt. Its own file, importing the platform's
 * address code only, because the sending thread loads it (application/sender-thread.ts).
 */
export function deliveryAddressError(address: string, environment: 'sandbox' | 'production'): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed) return `${address} is not an IP address`;
  const special = specialAddressKind(parsed);
  if (!special || (environment === 'sandbox' && special.sandbox)) return null;
  return `${address} is a ${special.kind.replace('_', '-')} address, which webhooks may not reach`;
}
