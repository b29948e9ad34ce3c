import { CommandHandler } from '@nestjs/cqrs';
import { aggregateCommands, type AggregateSpec, type CommandInput } from '../../../event-store/src';
import { customerEvolver, type Customer } from '../domain/customer';
import { CustomerNotFound } from '../domain/customer-errors';
import type { CustomerEvent } from '../domain/customer-events';
import { customerStream } from '../domain/customer-stream';
import { decide, type CustomerCommand } from '../domain/decide';

/** `customer-{id}`: a merchant's payer. */
export const customerAggregate: AggregateSpec<CustomerCommand, Customer, CustomerEvent> = {
  stream: customerStream,
  idOf: (command) => command.customerId,
  evolver: customerEvolver,
  decide,
  notFound: (id) => new CustomerNotFound(id),
  // A created customer is listed at once, a deleted one is gone at once.
  readModels: ['customer-list'],
};

export type CustomerCommandInput = CommandInput<CustomerCommand>;

const customerCommands = aggregateCommands(customerAggregate);

/** Every customer write: `commandBus.execute(new RunCustomerCommand(command, metadata))`. */
export class RunCustomerCommand extends customerCommands.Command {}

@CommandHandler(RunCustomerCommand)
export class RunCustomerCommandHandler extends customerCommands.Handler {}
