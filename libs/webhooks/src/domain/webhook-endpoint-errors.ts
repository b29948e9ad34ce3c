import { DomainError, NotFound } from '../../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/** 404: no such endpoint, a deleted one, or another partner's (all read the same). */
export class WebhookEndpointNotFound extends NotFound {
  constructor(readonly endpointId: string) {
    super('webhook_endpoint_not_found', `webhook endpoint ${endpointId} does not exist`);
  }
}

/** 404: no such delivery, or one of another partner's endpoint. */
export class WebhookDeliveryNotFound extends NotFound {
  constructor(readonly deliveryId: string) {
    super('webhook_delivery_not_found', `webhook delivery ${deliveryId} does not exist`);
  }
}

/** 400 `validation_error`: a URL or an `enabled_events` entry the rules refuse, named by field. */
export class WebhookEndpointInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/**
 * 409: the primary endpoint follows `webhook_url` of the partner configuration; its URL is
 * changed, and it is removed, there (`PUT /config/partners/{id}`), never here.
 */
export class PrimaryWebhookEndpointManaged extends DomainError {
  readonly code = 'primary_webhook_endpoint_managed';

  constructor(
    readonly endpointId: string,
    readonly action: string,
  ) {
    super(
      `webhook endpoint ${endpointId} is the partner's primary endpoint: ${action} it through webhook_url ` +
        'in PUT /config/partners/{partnerId}',
    );
  }
}

/** 429 (spec rule 9): the 101st replay for one endpoint within an hour. */
export class WebhookReplayLimitReached extends DomainError {
  readonly code = 'webhook_replay_limit_reached';
  override readonly retryable = true;

  constructor(
    readonly endpointId: string,
    readonly limit: number,
    /** Seconds until the oldest replay of the window leaves it (the `Retry-After` header). */
    readonly retryAfterSeconds: number,
  ) {
    super(
      `webhook endpoint ${endpointId} had ${limit} replays within the last hour; ` +
        `retry after ${retryAfterSeconds} seconds`,
    );
  }
}

/** 422: one event type would reach more endpoints than the per-event-type limit allows. */
export class WebhookEndpointLimitReached extends DomainError {
  readonly code = 'webhook_endpoint_limit_reached';

  constructor(
    readonly eventType: string,
    readonly limit: number,
  ) {
    super(`${eventType} is already delivered to ${limit} endpoints, the most one event type may reach`);
  }
}
