import { Module } from '@nestjs/common';
import { WebhookDeliveryWorker, WEBHOOK_SENDER } from './application/delivery-worker';
import { RunWebhookEndpointCommandHandler } from './application/webhook-endpoint-commands';
import { WebhookEndpointReader } from './application/webhook-endpoint-reader';
import { WebhookQueries } from './application/webhook-queries';
import { WebhookSecrets } from './application/webhook-secrets';
import { ThreadedWebhookSender } from './application/sender-thread';
import { EventsController } from './http/events.controller';
import { WebhookDeliveriesController } from './http/webhook-deliveries.controller';
import { WebhookEndpointDeliveriesController } from './http/webhook-endpoint-deliveries.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhookEventTypesController } from './http/webhook-event-types.controller';
import { WebhookMetadataController } from './http/webhook-metadata.controller';

/**
 * Webhooks: endpoints, the delivery worker, deliveries and replay, `GET /events`, the event-type
 * catalog and the delivery policy (docs/webhooks.md). The `webhooks` projector
 * (projections/webhooks) turns events into deliveries; the worker sends them.
 */
@Module({
  controllers: [
    WebhookEndpointsController,
    WebhookEndpointDeliveriesController,
    WebhookDeliveriesController,
    EventsController,
    WebhookEventTypesController,
    WebhookMetadataController,
  ],
  providers: [
    RunWebhookEndpointCommandHandler,
    WebhookEndpointReader,
    WebhookQueries,
    WebhookSecrets,
    WebhookDeliveryWorker,
    // Attempts' HTTP exchanges run on a thread of their own (sender-thread.ts).
    { provide: WEBHOOK_SENDER, useFactory: () => new ThreadedWebhookSender() },
  ],
  exports: [WebhookDeliveryWorker, WebhookEndpointReader],
})
export class WebhooksModule {}
