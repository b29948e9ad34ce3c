import { Injectable } from '@nestjs/common';
import { AggregateReader, EventStore } from '../../../event-store/src';
import type { HppSession } from '../domain/session/session';
import { hppSessionAggregate } from './hpp-session-commands';

/** One session, straight from its stream; another partner's is 404 `hpp_session_not_found`. */
@Injectable()
export class HppSessionReader extends AggregateReader<HppSession> {
  constructor(store: EventStore) {
    super(store, hppSessionAggregate);
  }
}
