import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents } from '../../../event-store/src';
import { webhookEndpointEvolver, type WebhookEndpoint } from '../domain/webhook-endpoint';
import { WebhookEndpointNotFound } from '../domain/webhook-endpoint-errors';
import { webhookEndpointStream } from '../domain/webhook-endpoint-events';

/**
 * One endpoint, straight from its stream. A deleted endpoint, and another partner's, reads
 * exactly like one that does not exist: 404 `webhook_endpoint_not_found`.
 */
@Injectable()
export class WebhookEndpointReader {
  constructor(private readonly store: EventStore) {}

  async find(endpointId: string): Promise<WebhookEndpoint | null> {
    return foldEvents(webhookEndpointEvolver, await this.store.readStream(webhookEndpointStream(endpointId)));
  }

  async getForPartner(endpointId: string, partnerId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.find(endpointId);
    if (!endpoint || endpoint.state === 'DELETED' || endpoint.partnerId !== partnerId) {
      throw new WebhookEndpointNotFound(endpointId);
    }
    return endpoint;
  }
}
