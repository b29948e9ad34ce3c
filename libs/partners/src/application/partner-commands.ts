import { CommandHandler } from '@nestjs/cqrs';
import {
  aggregateCommands,
  type AggregateResult,
  type AggregateSpec,
  type CommandInput,
} from '../../../event-store/src';
import { decide, type PartnerCommand } from '../domain/decide';
import { partnerEvolver, type Partner } from '../domain/partner';
import { PartnerNotFound } from '../domain/partner-errors';
import type { PartnerEvent } from '../domain/partner-events';
import { partnerStream } from '../domain/partner-stream';

/** `partner-{id}`: identity, API keys, configuration, feature flags, certification, page template. */
export const partnerAggregate: AggregateSpec<PartnerCommand, Partner, PartnerEvent> = {
  stream: partnerStream,
  idOf: (command) => command.partnerId,
  evolver: partnerEvolver,
  decide,
  notFound: (id) => new PartnerNotFound(id),
};

export type PartnerCommandInput = CommandInput<PartnerCommand>;
export type PartnerResult = AggregateResult<Partner, PartnerEvent>;

const partnerCommands = aggregateCommands(partnerAggregate);

/** Every partner write: `commandBus.execute(new RunPartnerCommand(command, metadata))`. */
export class RunPartnerCommand extends partnerCommands.Command {}

@CommandHandler(RunPartnerCommand)
export class RunPartnerCommandHandler extends partnerCommands.Handler {}

export const PARTNER_COMMAND_HANDLERS = [RunPartnerCommandHandler];
