import { randomUUID } from 'node:crypto';
import { idFor } from '../../../platform/src/http/request-metadata';

/**
 * Ids derived from what they are about (name-based UUIDs), so that every process, every restart
 * and every rebuild arrives at the same one.
 */

/** The envelope `id`: one per (domain event, webhook type), the same for every endpoint, retry and replay. */
export function envelopeIdFor(eventId: string, webhookType: string): string {
  return idFor(eventId, `webhook-envelope:${webhookType}`, randomUUID);
}

/** One delivery per (endpoint, envelope): the delivery table's key. */
export function deliveryIdFor(endpointId: string, envelopeId: string): string {
  return idFor(`${endpointId}:${envelopeId}`, 'webhook-delivery', randomUUID);
}

/** The partner's primary endpoint (the one `webhook_url` feeds) has one id for its whole life. */
export function primaryEndpointIdFor(partnerId: string): string {
  return idFor(partnerId, 'primary-webhook-endpoint', randomUUID);
}
