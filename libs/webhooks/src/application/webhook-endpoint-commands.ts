import { CommandHandler } from '@nestjs/cqrs';
import {
  aggregateCommands,
  type AggregateResult,
  type AggregateSpec,
  type CommandInput,
} from '../../../event-store/src';
import { decide, type WebhookEndpointCommand } from '../domain/decide';
import { webhookEndpointEvolver, type WebhookEndpoint } from '../domain/webhook-endpoint';
import { WebhookEndpointNotFound } from '../domain/webhook-endpoint-errors';
import { webhookEndpointStream, type WebhookEndpointEvent } from '../domain/webhook-endpoint-events';

/** The `webhooks` read model: the endpoint list, and the deliveries a test or a replay makes. */
export const WEBHOOKS_READ_MODEL = 'webhooks';

/** `webhook_endpoint-{id}`: where a partner's webhooks go, and how they are signed. */
export const webhookEndpointAggregate: AggregateSpec<
  WebhookEndpointCommand,
  WebhookEndpoint,
  WebhookEndpointEvent
> = {
  stream: webhookEndpointStream,
  idOf: (command) => command.endpointId,
  evolver: webhookEndpointEvolver,
  decide,
  notFound: (id) => new WebhookEndpointNotFound(id),
  // A created endpoint is listed at once; a test or replay answers with its delivery row.
  readModels: [WEBHOOKS_READ_MODEL],
};

export type WebhookEndpointCommandInput = CommandInput<WebhookEndpointCommand>;
export type WebhookEndpointResult = AggregateResult<WebhookEndpoint, WebhookEndpointEvent>;

const webhookEndpointCommands = aggregateCommands(webhookEndpointAggregate);

/** Every webhook endpoint write: `commandBus.execute(new RunWebhookEndpointCommand(command, metadata))`. */
export class RunWebhookEndpointCommand extends webhookEndpointCommands.Command {}

@CommandHandler(RunWebhookEndpointCommand)
export class RunWebhookEndpointCommandHandler extends webhookEndpointCommands.Handler {}
