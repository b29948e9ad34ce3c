import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import type { WebhookEndpoint } from './webhook-endpoint';

/**
 * A webhook endpoint as the API answers it (snake_case). The signing secret is never part of it:
 * it is shown once, in the answer of create (`secret`) and of rotate-secret (`{secret}`).
 */
export const WebhookEndpointSchema = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    url: z.string().meta({ format: 'uri' }),
    enabled_events: z
      .array(z.string())
      .meta({ description: '`["*"]`: every subscribable type, including types added later.' }),
    state: z.enum(['ENABLED', 'SUSPENDED']),
    primary: z
      .boolean()
      .meta({ description: 'The endpoint that follows `webhook_url` of the partner configuration.' }),
    secret_rotated_at: Timestamp,
    previous_secret_expires_at: Timestamp.nullable().meta({
      description: 'While the previous secret still signs (24 h after a rotation), when it stops; else null.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: z.int(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointResource = z.infer<typeof WebhookEndpointSchema>;

export function toWebhookEndpointResource(endpoint: WebhookEndpoint, now: Date): WebhookEndpointResource {
  const previous = endpoint.previousSecret;
  return {
    id: endpoint.id,
    partner_id: endpoint.partnerId,
    url: endpoint.url,
    enabled_events: endpoint.enabledEvents ? [...endpoint.enabledEvents] : ['*'],
    state: endpoint.state === 'SUSPENDED' ? 'SUSPENDED' : 'ENABLED',
    primary: endpoint.primary,
    secret_rotated_at: endpoint.secret.createdAt,
    previous_secret_expires_at:
      previous && Date.parse(previous.expiresAt) > now.getTime() ? previous.expiresAt : null,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
    version: endpoint.version,
  };
}
