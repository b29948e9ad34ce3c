/**
 * Stored webhook endpoint events (stream `webhook_endpoint-{id}`). Stored types are never renamed
 * or reshaped; add new ones instead. A signing secret is never in an event in clear: only sealed
 * with the vault key (`sealed`, base64 of AES-256-GCM bound to the endpoint). Times are ISO-8601.
 */
export const webhookEndpointStream = (endpointId: string): string => `webhook_endpoint-${endpointId}`;
export const WEBHOOK_ENDPOINT_STREAM_PREFIX = 'webhook_endpoint-';

/** A signing secret as stored: sealed under the vault key, never the `whsec_…` text itself. */
export interface SealedSecret {
  sealed: string;
  createdAt: string;
}

interface Ids {
  endpointId: string;
  partnerId: string;
}

export interface WebhookEndpointCreated {
  type: 'WebhookEndpointCreated';
  data: Ids & {
    url: string;
    /** null: every subscribable type, now and later (`["*"]` on the wire). */
    enabledEvents: string[] | null;
    /** The endpoint that follows the partner configuration's `webhook_url`. */
    primary: boolean;
    secret: SealedSecret;
    createdAt: string;
  };
}

/** PATCH, or the primary endpoint re-pointed: only the fields that changed are present. */
export interface WebhookEndpointUpdated {
  type: 'WebhookEndpointUpdated';
  data: Ids & { url?: string; enabledEvents?: string[] | null; updatedAt: string };
}

/** The new secret signs from now on; the old one also signs until `previousExpiresAt`. */
export interface WebhookEndpointSecretRotated {
  type: 'WebhookEndpointSecretRotated';
  data: Ids & { secret: SealedSecret; previousExpiresAt: string; rotatedAt: string };
}

/** The platform stopped delivering: `failedDeliveries` consecutive deliveries failed. */
export interface WebhookEndpointSuspended {
  type: 'WebhookEndpointSuspended';
  data: Ids & { failedDeliveries: number; suspendedAt: string };
}

export interface WebhookEndpointReenabled {
  type: 'WebhookEndpointReenabled';
  data: Ids & { reenabledAt: string };
}

export interface WebhookEndpointDeleted {
  type: 'WebhookEndpointDeleted';
  data: Ids & { deletedAt: string };
}

/** A partner asked to send a delivery's stored envelope again (spec rule 9). */
export interface WebhookDeliveryReplayRequested {
  type: 'WebhookDeliveryReplayRequested';
  data: Ids & { deliveryId: string; requestedAt: string };
}

/** A partner asked for a signed `webhook_endpoint.test` event; `testId` is its envelope id. */
export interface WebhookEndpointTestRequested {
  type: 'WebhookEndpointTestRequested';
  data: Ids & { testId: string; requestedAt: string };
}

/**
 * The partner configuration's `webhook_url` changed (partner stream revision `partnerRevision`)
 * and the primary endpoint now follows it. Emitted with Created, Updated or Deleted; it keeps the
 * revision so an older change applied late is recognised and ignored.
 */
export interface PrimaryWebhookEndpointSynced {
  type: 'PrimaryWebhookEndpointSynced';
  data: Ids & { partnerRevision: string; url: string | null; syncedAt: string };
}

export type WebhookEndpointEvent =
  | WebhookEndpointCreated
  | WebhookEndpointUpdated
  | WebhookEndpointSecretRotated
  | WebhookEndpointSuspended
  | WebhookEndpointReenabled
  | WebhookEndpointDeleted
  | WebhookDeliveryReplayRequested
  | WebhookEndpointTestRequested
  | PrimaryWebhookEndpointSynced;

export type WebhookEndpointEventType = WebhookEndpointEvent['type'];

const ALL: Record<WebhookEndpointEventType, true> = {
  WebhookEndpointCreated: true,
  WebhookEndpointUpdated: true,
  WebhookEndpointSecretRotated: true,
  WebhookEndpointSuspended: true,
  WebhookEndpointReenabled: true,
  WebhookEndpointDeleted: true,
  WebhookDeliveryReplayRequested: true,
  WebhookEndpointTestRequested: true,
  PrimaryWebhookEndpointSynced: true,
};

/** Every endpoint event type (the record above makes the compiler check the list is complete). */
export const WEBHOOK_ENDPOINT_EVENT_TYPES = Object.keys(ALL) as WebhookEndpointEventType[];
