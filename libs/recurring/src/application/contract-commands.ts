import { CommandHandler } from '@nestjs/cqrs';
import {
  aggregateCommands,
  type AggregateResult,
  type AggregateSpec,
  type CommandInput,
} from '../../../event-store/src';
import {
  contractEvolver,
  contractStream,
  ContractNotFound,
  decide,
  type Contract,
  type ContractCommand,
  type ContractEvent,
} from '../domain';

/** The read model behind `GET /contracts` and the scheduler's due list. */
export const CONTRACT_LIST = 'contract-list';

/**
 * `contract-{id}`: one recurring contract, from creation through its installments to its end.
 * Writes do not wait for the read model here: a partner's write waits for `contract-list` in
 * {@link ContractWrites} (so the list answers it at once), the scheduler's do not (nothing reads
 * the list after them but the scheduler, which folds the stream).
 */
export const contractAggregate: AggregateSpec<ContractCommand, Contract, ContractEvent> = {
  stream: contractStream,
  idOf: (command) => command.contractId,
  evolver: contractEvolver,
  decide,
  notFound: (id) => new ContractNotFound(id),
};

export type ContractCommandInput = CommandInput<ContractCommand>;
export type ContractResult = AggregateResult<Contract, ContractEvent>;

const contractCommands = aggregateCommands(contractAggregate);

/** Every contract write: `commandBus.execute(new RunContractCommand(command, metadata))`. */
export class RunContractCommand extends contractCommands.Command {}

@CommandHandler(RunContractCommand)
export class RunContractCommandHandler extends contractCommands.Handler {}
