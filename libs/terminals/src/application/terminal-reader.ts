import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore, foldEvents } from '../../../event-store/src';
import { serialClaimEvolver, type SerialClaim } from '../domain/serial-claim';
import type { Terminal } from '../domain/terminal';
import { serialClaimStream } from '../domain/terminal-stream';
import { terminalAggregate } from './terminal-commands';

/**
 * One terminal, straight from its stream. Another partner's terminal reads exactly like one that
 * does not exist: 404 `terminal_not_found`.
 */
@Injectable()
export class TerminalReader extends AggregateReader<Terminal> {
  constructor(store: EventStore) {
    super(store, terminalAggregate);
  }

  /** Who holds a merchant's serial number (serial-claim.ts); null when nobody ever did. */
  async claim(claimId: string): Promise<SerialClaim | null> {
    return foldEvents(serialClaimEvolver, await this.store.readStream(serialClaimStream(claimId)));
  }
}
