import { validateWebhookUrl, type Environment } from '../../../partners/src/domain';
import type { FieldError } from './webhook-endpoint-errors';

/**
 * Webhook URL rules (CONTRACT §6). One set of rules for an endpoint's `url` and the partner
 * configuration's `webhook_url` (which feeds the primary endpoint), so both refuse the same
 * URLs: at most 2048 characters, absolute `http`/`https` without credentials or fragment; in
 * production `https` only and a fully qualified name; a literal address or `localhost` that is
 * loopback, private, link-local, metadata, shared, multicast or reserved is refused — except
 * loopback in sandbox, so partners can test against a local receiver.
 *
 * A name is resolved at every attempt and each address it resolves to is checked by
 * `deliveryAddressError` (delivery-address.ts): the connection then goes to that checked address, so a DNS answer
 * that changes between registration and delivery (or between attempts) is caught.
 */
export function validateEndpointUrl(url: unknown, environment: Environment, field = 'url'): FieldError[] {
  if (typeof url !== 'string' || url === '')
    return [{ field, message: 'must be an absolute http or https URL' }];
  return validateWebhookUrl(url, environment).map((error) => ({ ...error, field }));
}
