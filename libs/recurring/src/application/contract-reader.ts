import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore, foldEvents } from '../../../event-store/src';
import { contractEvolver, type Contract } from '../domain';
import { contractAggregate } from './contract-commands';

/**
 * One contract, straight from its stream (its state is never behind a read model). Another
 * partner's contract reads exactly like one that does not exist: 404 `contract_not_found`.
 */
@Injectable()
export class ContractReader extends AggregateReader<Contract> {
  constructor(store: EventStore) {
    super(store, contractAggregate);
  }

  /** The contract as its events make it, with the stream's revision; null when there is none. */
  async load(contractId: string): Promise<{ contract: Contract; revision: bigint } | null> {
    const events = await this.history(contractId);
    const contract = foldEvents(contractEvolver, events);
    return contract ? { contract, revision: events[events.length - 1].revision } : null;
  }
}
