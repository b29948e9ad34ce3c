import { Injectable } from '@nestjs/common';
import { EventStore, foldEvents, type RecordedEvent } from '../../../event-store/src';
import { contractEvolver, contractStream, ContractNotFound, type Contract } from '../domain';

/**
 * One contract, straight from its stream (its state is never behind a read model). Another
 * partner's contract reads exactly like one that does not exist: 404 `contract_not_found`.
 */
@Injectable()
export class ContractReader {
  constructor(private readonly store: EventStore) {}

  history(contractId: string): Promise<RecordedEvent[]> {
    return this.store.readStream(contractStream(contractId));
  }

  /** The contract as its events make it, with the stream's revision; null when there is none. */
  async load(contractId: string): Promise<{ contract: Contract; revision: bigint } | null> {
    const events = await this.history(contractId);
    const contract = foldEvents(contractEvolver, events);
    return contract ? { contract, revision: events[events.length - 1].revision } : null;
  }

  async find(contractId: string): Promise<Contract | null> {
    return (await this.load(contractId))?.contract ?? null;
  }

  async getForPartner(contractId: string, partnerId: string): Promise<Contract> {
    const contract = await this.find(contractId);
    if (!contract || contract.partnerId !== partnerId) throw new ContractNotFound(contractId);
    return contract;
  }
}
