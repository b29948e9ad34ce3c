export * from './domain';
export { WebhooksModule } from './webhooks.module';
export { WebhookDeliveryWorker, WEBHOOK_SENDER } from './application/delivery-worker';
export { WEBHOOK_DELIVERIES_CHANNEL, EVENT_RETENTION_DAYS } from './application/delivery-queue';
export { DeliveryHandoff, type HandedDelivery } from './application/delivery-handoff';
export { deliveryIdFor, envelopeIdFor, primaryEndpointIdFor } from './application/webhook-ids';
export { WebhookSender, type Resolver } from './application/webhook-sender';
export { WEBHOOKS_READ_MODEL } from './application/webhook-endpoint-commands';
export { WEBHOOK_QUEUE_GAUGES } from './application/webhook-metrics';
