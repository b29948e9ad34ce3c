import type { WebhookEndpoint } from './webhook-endpoint';

/**
 * A webhook endpoint as the API answers it (snake_case). The signing secret is never part of it:
 * it is shown once, in the answer of create (`secret`) and of rotate-secret (`{secret}`).
 */
export interface WebhookEndpointResource {
  id: string;
  partner_id: string;
  url: string;
  /** `["*"]`: every subscribable type, including types added later. */
  enabled_events: string[];
  state: 'ENABLED' | 'SUSPENDED';
  /** The endpoint that follows `webhook_url` of the partner configuration. */
  primary: boolean;
  secret_rotated_at: string;
  /** While the previous secret still signs (24 h after a rotation), when it stops; else null. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

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
