import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec, type CommandInput } from '../../../event-store/src';
import { decide, type MerchantStreamCommand } from '../domain/decide';
import { merchantEvolver, type Merchant, type MerchantStreamEvent } from '../domain/merchant';
import { MerchantNotFound } from '../domain/merchant-errors';
import { merchantStream } from '../domain/merchant-stream';

/** `merchant-{id}`: lifecycle, fees, bank, compliance, custom fields and the page override. */
export const merchantAggregate: AggregateSpec<MerchantStreamCommand, Merchant, MerchantStreamEvent> = {
  stream: merchantStream,
  idOf: (command) => command.merchantId,
  evolver: merchantEvolver,
  decide,
  notFound: (id) => new MerchantNotFound(id),
  // The list and every read built on it answer a write at once.
  readModels: ['merchant-list'],
};

export type MerchantCommandInput = CommandInput<MerchantStreamCommand>;

const merchantCommands = aggregateCommands(merchantAggregate);

/** Every merchant write: `commandBus.execute(new RunMerchantCommand(command, metadata))`. */
export class RunMerchantCommand extends merchantCommands.Command {}

@CommandHandler(RunMerchantCommand)
export class RunMerchantCommandHandler extends merchantCommands.Handler {}
