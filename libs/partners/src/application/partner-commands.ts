import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { EventStore, handleCommand } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { decide, type PartnerCommand } from '../domain/decide';
import { partnerEvolver, type Partner } from '../domain/partner';
import { PartnerNotFound } from '../domain/partner-errors';
import type { PartnerEvent } from '../domain/partner-events';
import { partnerStream } from '../domain/partner-stream';

/** What a partner command answers: the partner after it, and where its events landed. */
export interface PartnerResult {
  partner: Partner;
  /** The events of this command (or of its earlier run, when `alreadyApplied`). */
  events: PartnerEvent[];
  /** Global position of the last event of this command, for read-your-writes; null if none. */
  position: bigint | null;
  /** An earlier run of the same request appended the events; nothing new was written. */
  alreadyApplied: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A partner command as callers give it: the handler stamps the time from the clock. */
export type PartnerCommandInput = DistributiveOmit<PartnerCommand, 'at'>;

/** The one command of the partner context: the domain command inside says what to do. */
export class ExecutePartnerCommand extends Command<PartnerResult> {
  constructor(
    readonly command: PartnerCommandInput,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** Load `partner-{id}`, decide, append with the expected revision, retry on a race. */
@CommandHandler(ExecutePartnerCommand)
export class ExecutePartnerCommandHandler implements ICommandHandler<ExecutePartnerCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ command, metadata }: ExecutePartnerCommand): Promise<PartnerResult> {
    const at = this.clock.now();
    const result = await handleCommand<Partner | null, PartnerEvent>(
      this.store,
      partnerStream(command.partnerId),
      partnerEvolver,
      (partner) => decide({ ...command, at } as PartnerCommand, partner),
      metadata,
    );
    if (!result.state) throw new PartnerNotFound(command.partnerId);
    return {
      partner: result.state,
      events: result.events,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }
}

export const PARTNER_COMMAND_HANDLERS = [ExecutePartnerCommandHandler];
