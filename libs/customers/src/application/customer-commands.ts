import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import { EventStore, handleCommand } from '../../../event-store/src';
import { Clock } from '../../../platform/src/clock/clock';
import { customerEvolver, type Customer } from '../domain/customer';
import { CustomerNotFound } from '../domain/customer-errors';
import type { CustomerEvent } from '../domain/customer-events';
import { customerStream } from '../domain/customer-stream';
import { decide, type CustomerCommand } from '../domain/decide';

export interface CustomerResult {
  customer: Customer;
  events: CustomerEvent[];
  /** Global position of the command's last event, for read-your-writes; null if none. */
  position: bigint | null;
  alreadyApplied: boolean;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A customer command as callers give it: the handler stamps the time from the clock. */
export type CustomerCommandInput = DistributiveOmit<CustomerCommand, 'at'>;

export class ExecuteCustomerCommand extends Command<CustomerResult> {
  constructor(
    readonly command: CustomerCommandInput,
    readonly metadata: EventMetadata,
  ) {
    super();
  }
}

/** Load `customer-{id}`, decide, append with the expected revision, retry on a race. */
@CommandHandler(ExecuteCustomerCommand)
export class ExecuteCustomerCommandHandler implements ICommandHandler<ExecuteCustomerCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ command, metadata }: ExecuteCustomerCommand): Promise<CustomerResult> {
    const at = this.clock.now();
    const result = await handleCommand<Customer | null, CustomerEvent>(
      this.store,
      customerStream(command.customerId),
      customerEvolver,
      (customer) => decide({ ...command, at } as CustomerCommand, customer),
      metadata,
    );
    if (!result.state) throw new CustomerNotFound(command.customerId);
    return {
      customer: result.state,
      events: result.events,
      position: result.position,
      alreadyApplied: result.alreadyApplied,
    };
  }
}
