import { randomUUID } from 'node:crypto';
import { testMetadata } from '../../../../test/support/metadata';
import { useTestEventStore } from '../../../../test/support/event-store';
import type { PostgresEventStore } from '../../../event-store/src/postgres/postgres-event-store';
import { FixedClock } from '../../../platform/src/clock/clock';
import { PartnerNotFound } from '../domain/partner-errors';
import { partnerStream } from '../domain/partner-stream';
import { RunPartnerCommand, RunPartnerCommandHandler } from './partner-commands';

const metadata = (requestId: string) =>
  testMetadata({
    actor: 'operator',
    request_id: requestId,
    idempotency_key: `idem-${requestId}`,
    causation_id: requestId,
    correlation_id: requestId,
  });

describe('partner commands on the real event store', () => {
  const clock = new FixedClock(new Date('2026-11-01T09:00:00.000Z'));

  const db = useTestEventStore('partner_commands', clock);
  let store: PostgresEventStore;
  beforeAll(() => {
    store = db.store;
  });

  const handler = () => new RunPartnerCommandHandler(store, clock, async () => undefined);
  const change = handler;
  const certify = handler;

  async function newPartner(): Promise<string> {
    const partnerId = randomUUID();
    await handler().execute(
      new RunPartnerCommand(
        { type: 'CreatePartner', partnerId, name: 'Acme', contactEmail: 'a@acme.test', contactName: 'Ada' },
        metadata('r1'),
      ),
    );
    return partnerId;
  }

  it('creates a partner as one event on partner-{id}, with the request metadata and the clock time', async () => {
    const partnerId = await newPartner();
    const events = await store.readStream(partnerStream(partnerId));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'PartnerCreated',
      revision: 0n,
      metadata: metadata('r1'),
      recordedAt: clock.now(),
      data: { partnerId, name: 'Acme', createdAt: '2026-11-01T09:00:00.000Z' },
    });
  });

  it('answers the state and the global position for read-your-writes', async () => {
    const partnerId = await newPartner();
    const result = await certify().execute(
      new RunPartnerCommand(
        { type: 'SetCertificationStatus', partnerId, status: 'CERTIFIED' },
        metadata('r2'),
      ),
    );
    expect(result.state).toMatchObject({ certificationStatus: 'CERTIFIED', state: 'ACTIVE', version: 2 });
    expect(result.position).toBe((await store.readStream(partnerStream(partnerId)))[1].globalPosition);
  });

  it('two racing config changes on one partner both land, one after the other, none lost', async () => {
    const partnerId = await newPartner();
    const [a, b] = await Promise.all([
      change().execute(
        new RunPartnerCommand(
          { type: 'ChangePartnerConfig', partnerId, rateLimitTier: 'ELEVATED' },
          metadata('ra'),
        ),
      ),
      change().execute(
        new RunPartnerCommand(
          { type: 'ChangePartnerConfig', partnerId, avsDeclinePolicy: 'DECLINE_ON_NO_MATCH' },
          metadata('rb'),
        ),
      ),
    ]);
    expect([a.state.version, b.state.version].sort()).toEqual([2, 3]);
    const events = await store.readStream(partnerStream(partnerId));
    expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
    const last = [a, b].find((r) => r.state.version === 3)!;
    expect(last.state).toMatchObject({
      rateLimitTier: 'ELEVATED',
      avsDeclinePolicy: 'DECLINE_ON_NO_MATCH',
    });
  });

  it('a no-op change appends nothing and returns no position', async () => {
    const partnerId = await newPartner();
    const result = await change().execute(
      new RunPartnerCommand(
        { type: 'ChangePartnerConfig', partnerId, rateLimitTier: 'STANDARD' },
        metadata('r3'),
      ),
    );
    expect(result.position).toBeNull();
    expect(await store.readStream(partnerStream(partnerId))).toHaveLength(1);
  });

  it('a re-run of the same command (same causation id) appends nothing and answers the same partner', async () => {
    const partnerId = await newPartner();
    const command = new RunPartnerCommand(
      { type: 'ChangePartnerConfig', partnerId, rateLimitTier: 'ELEVATED' },
      metadata('r5'),
    );
    const first = await change().execute(command);
    const again = await change().execute(command);
    expect(first.alreadyApplied).toBe(false);
    expect(again).toMatchObject({ alreadyApplied: true, position: first.position });
    expect(again.state).toEqual(first.state);
    expect(again.events.map((e) => e.type)).toEqual(['PartnerConfigChanged']);
    expect(await store.readStream(partnerStream(partnerId))).toHaveLength(2);
  });

  it('an unknown partner is partner_not_found and writes nothing', async () => {
    const partnerId = randomUUID();
    await expect(
      change().execute(
        new RunPartnerCommand(
          { type: 'ChangePartnerConfig', partnerId, rateLimitTier: 'ELEVATED' },
          metadata('r4'),
        ),
      ),
    ).rejects.toBeInstanceOf(PartnerNotFound);
    expect(await store.readStream(partnerStream(partnerId))).toEqual([]);
  });
});
