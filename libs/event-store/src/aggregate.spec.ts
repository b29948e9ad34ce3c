import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CommandHandler, CqrsModule } from '@nestjs/cqrs';
import { Clock, FixedClock } from '../../platform/src/clock/clock';
import { NotFound } from '../../platform/src/problem';
import { useTestEventStore } from '../../../test/support/event-store';
import { testMetadata } from '../../../test/support/metadata';
import { Aggregate, READ_MODEL_WAIT, type AggregateSpec } from './aggregate';
import { aggregateCommands } from './aggregate-command';
import { EventStore } from './event-store';
import type { DomainEvent } from './handle-command';
import type { PostgresEventStore } from './postgres/postgres-event-store';

type Tally = { id: string; total: number; openedAt: string };
type TallyCommand =
  | { type: 'OpenTally'; tallyId: string; at: Date }
  | { type: 'AddToTally'; tallyId: string; by: number; at: Date };
type TallyEvent =
  DomainEvent<'TallyOpened', { id: string; at: string }> | DomainEvent<'Added', { by: number }>;

class TallyNotFound extends NotFound {
  constructor(id: string) {
    super('tally_not_found', `tally ${id} does not exist`);
  }
}

const tallySpec: AggregateSpec<TallyCommand, Tally, TallyEvent> = {
  stream: (id) => `tally-${id}`,
  idOf: (command) => command.tallyId,
  evolver: {
    initialState: () => null,
    evolve: (state, event) =>
      event.type === 'TallyOpened'
        ? { id: event.data.id, total: 0, openedAt: event.data.at }
        : state && { ...state, total: state.total + event.data.by },
  },
  decide: (command, state) =>
    command.type === 'OpenTally'
      ? [{ type: 'TallyOpened', data: { id: command.tallyId, at: command.at.toISOString() } }]
      : state
        ? [{ type: 'Added', data: { by: command.by } }]
        : [],
  notFound: (id) => new TallyNotFound(id),
  readModels: ['tally-list'],
};

const AT = new Date('2026-11-01T00:00:00Z');
const metadata = testMetadata({ actor: 'operator', request_id: 'req-1' });

describe('Aggregate: one command path for every aggregate', () => {
  const clock = new FixedClock(AT);
  const db = useTestEventStore('aggregate', clock);
  let store: PostgresEventStore;
  const waits: [bigint, readonly string[]][] = [];
  let tallies: Aggregate<TallyCommand, Tally, TallyEvent>;
  beforeAll(() => {
    store = db.store;
    tallies = new Aggregate(tallySpec, store, clock, async (position, names) => {
      waits.push([position, names]);
    });
  });

  it('stamps the time from the clock, appends on the aggregate’s stream and waits for its read models', async () => {
    const opened = await tallies.run({ type: 'OpenTally', tallyId: 'a' }, metadata);
    expect(opened.state).toEqual({ id: 'a', total: 0, openedAt: AT.toISOString() });
    expect(opened.revision).toBe(0n);
    expect(waits).toEqual([[opened.position, ['tally-list']]]);
    const added = await tallies.run({ type: 'AddToTally', tallyId: 'a', by: 3 }, metadata);
    expect(added.state.total).toBe(3);
    expect((await tallies.history('a')).map((e) => e.type)).toEqual(['TallyOpened', 'Added']);
    expect(await tallies.find('a')).toEqual(added.state);
  });

  it('answers the spec’s not-found error when a command leaves no aggregate, and waits for nothing', async () => {
    waits.length = 0;
    await expect(
      tallies.run({ type: 'AddToTally', tallyId: 'none', by: 1 }, metadata),
    ).rejects.toBeInstanceOf(TallyNotFound);
    expect(waits).toEqual([]);
    expect(await tallies.find('none')).toBeNull();
  });

  it('a stale guess of the stream (`known`) costs only a retry on fresh state', async () => {
    await tallies.run({ type: 'OpenTally', tallyId: 'b' }, metadata);
    const stale = await tallies.run({ type: 'AddToTally', tallyId: 'b', by: 5 }, metadata, {
      known: { state: { id: 'b', total: 100, openedAt: AT.toISOString() }, revision: 7n },
    });
    expect(stale.state.total).toBe(5);
    expect(stale.revision).toBe(1n);
  });

  it('is reached through the command bus, with the read-model wait the deployment provides', async () => {
    const commands = aggregateCommands(tallySpec);
    class RunTallyCommand extends commands.Command {}
    @CommandHandler(RunTallyCommand)
    class RunTallyCommandHandler extends commands.Handler {}

    const waited: string[][] = [];
    @Module({
      imports: [CqrsModule.forRoot()],
      providers: [
        RunTallyCommandHandler,
        { provide: EventStore, useValue: store },
        { provide: Clock, useValue: clock },
        { provide: READ_MODEL_WAIT, useValue: async (_: bigint, names: string[]) => waited.push([...names]) },
      ],
    })
    class TallyModule {}
    const module = await NestFactory.createApplicationContext(TallyModule, { logger: false });
    const bus = module.get(CommandBus);
    const result = await bus.execute(new RunTallyCommand({ type: 'OpenTally', tallyId: 'c' }, metadata));
    expect(result.state).toMatchObject({ id: 'c', total: 0 });
    expect(waited).toEqual([['tally-list']]);
    await module.close();
  });
});
