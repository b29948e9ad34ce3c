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
  /** Global position of the last event written, for read-your-writes; null if nothing changed. */
  position: bigint | null;
}

type Without<C, K extends keyof C> = Omit<C, K>;
type CommandInput<T extends PartnerCommand['type']> = Without<
  Extract<PartnerCommand, { type: T }>,
  'type' | 'at'
>;

export class CreatePartner extends Command<PartnerResult> {
  constructor(
    readonly input: CommandInput<'CreatePartner'>,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

export class ChangePartnerConfig extends Command<PartnerResult> {
  constructor(
    readonly input: CommandInput<'ChangePartnerConfig'>,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

export class SetCertificationStatus extends Command<PartnerResult> {
  constructor(
    readonly input: CommandInput<'SetCertificationStatus'>,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** The one path every partner command takes: load, decide, append, retry on a race. */
async function run(
  store: EventStore,
  clock: Clock,
  command: PartnerCommand,
  metadata: EventMetadata,
): Promise<PartnerResult> {
  const result = await handleCommand<Partner | null, PartnerEvent>(
    store,
    partnerStream(command.partnerId),
    partnerEvolver,
    (partner) => decide(command, partner),
    metadata,
  );
  if (!result.state) throw new PartnerNotFound(command.partnerId);
  return { partner: result.state, position: result.position };
}

@CommandHandler(CreatePartner)
export class CreatePartnerHandler implements ICommandHandler<CreatePartner> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  execute({ input, metadata }: CreatePartner): Promise<PartnerResult> {
    return run(this.store, this.clock, { type: 'CreatePartner', ...input, at: this.clock.now() }, metadata);
  }
}

@CommandHandler(ChangePartnerConfig)
export class ChangePartnerConfigHandler implements ICommandHandler<ChangePartnerConfig> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  execute({ input, metadata }: ChangePartnerConfig): Promise<PartnerResult> {
    return run(
      this.store,
      this.clock,
      { type: 'ChangePartnerConfig', ...input, at: this.clock.now() },
      metadata,
    );
  }
}

@CommandHandler(SetCertificationStatus)
export class SetCertificationStatusHandler implements ICommandHandler<SetCertificationStatus> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  execute({ input, metadata }: SetCertificationStatus): Promise<PartnerResult> {
    return run(
      this.store,
      this.clock,
      { type: 'SetCertificationStatus', ...input, at: this.clock.now() },
      metadata,
    );
  }
}

export const PARTNER_COMMAND_HANDLERS = [
  CreatePartnerHandler,
  ChangePartnerConfigHandler,
  SetCertificationStatusHandler,
];
