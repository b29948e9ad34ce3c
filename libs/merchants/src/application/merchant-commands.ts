import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { EventStore, handleCommand } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { decide, type MerchantStreamCommand } from '../domain/decide';
import { merchantEvolver, type Merchant, type MerchantStreamEvent } from '../domain/merchant';
import { MerchantNotFound } from '../domain/merchant-errors';
import { merchantStream } from '../domain/merchant-stream';

export interface MerchantResult {
  merchant: Merchant;
  events: MerchantStreamEvent[];
  /** Global position of the command's last event, for read-your-writes; null if none. */
  position: bigint | null;
  alreadyApplied: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A merchant command as callers give it: the handler stamps the time from the clock. */
export type MerchantCommandInput = DistributiveOmit<MerchantStreamCommand, 'at'>;

export class ExecuteMerchantCommand extends Command<MerchantResult> {
  constructor(
    readonly command: MerchantCommandInput,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** Load `merchant-{id}`, decide, append with the expected revision, retry on a race. */
@CommandHandler(ExecuteMerchantCommand)
export class ExecuteMerchantCommandHandler implements ICommandHandler<ExecuteMerchantCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ command, metadata }: ExecuteMerchantCommand): Promise<MerchantResult> {
    const at = this.clock.now();
    const result = await handleCommand<Merchant | null, MerchantStreamEvent>(
      this.store,
      merchantStream(command.merchantId),
      merchantEvolver,
      (merchant) => decide({ ...command, at } as MerchantStreamCommand, merchant),
      metadata,
    );
    if (!result.state) throw new MerchantNotFound(command.merchantId);
    return {
      merchant: result.state,
      events: result.events,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }
}
