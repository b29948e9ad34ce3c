/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies and log lines are inspected freely */
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { createLogger } from '../../libs/platform/src/logging/logger';
import { idFor } from '../../libs/platform/src/http/request-metadata';
import { fingerprintOf } from '../../libs/platform/src/idempotency/idempotency-store';
import { Charges } from '../../libs/transactions/src/application/charge';
import {
  parseTransactionRequest,
  type ChargeRequest,
} from '../../libs/transactions/src/domain/transaction-request';
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type ApiResponse, type TestPartner } from '../support/api';
import { activeMerchant, vaultedCredential } from '../support/payments';
import { expectProblem } from '../support/problems';

/**
 * A `POST /transactions` whose twin (same Idempotency-Key, same body) arrives while it is still
 * being processed (CONTRACT §7, ADR 0004): the twin is 409 `idempotency_key_in_progress` with a
 * Retry-After of about a heartbeat, like every other write; 502 `gateway_outcome_unknown` stays
 * for a gateway answer that never came. A live request keeps its key however long it takes; a
 * request whose process died frees it within one lease.
 */
describe('POST /transactions: a twin of a request still in flight', () => {
  const logLines: string[] = [];
  const platform = useTestPlatform(
    {},
    { logger: createLogger('info', { write: (line: string) => void logLines.push(line) }) },
  );
  let partner: TestPartner;
  let merchantId: string;
  let token: string;

  const body = (amount = '25.00') => ({
    type: 'SALE',
    merchant_id: merchantId,
    amount,
    currency: 'USD',
    vault_token: token,
    use_type: 'ONE_TIME_FUTURE',
  });
  const sale = (key: string, amount?: string) =>
    partner.client.post('/transactions', body(amount), { idempotencyKey: key });
  const gateway = () => platform().service.app.get(PaymentGateway) as SandboxGateway;
  const captures = () => gateway().effects().captures;
  const errorLogs = () => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'error');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The sandbox gateway answers card charges only once released: a slow gateway, for real. */
  function holdTheGateway() {
    const original = gateway().authorizeAndCapture.bind(gateway());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const spy = jest.spyOn(gateway(), 'authorizeAndCapture').mockImplementation(async (request) => {
      arrived();
      await released;
      return original(request);
    });
    return {
      /** Resolves once a request is waiting at the gateway (it holds its key by then). */
      reached,
      release: () => {
        release();
        spy.mockRestore();
      },
    };
  }

  function expectInProgress(res: ApiResponse): void {
    expectProblem(res, 409, 'idempotency_key_in_progress');
    expect(res.body.retryable).toBe(true);
    // About one heartbeat of the running request, not the lease (let alone 30 s).
    expect(res.headers.get('retry-after')).toBe('1');
  }

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner);
    token = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
  });

  it('two identical requests at once: one 200, one 409 with Retry-After 1, nothing logged as an error, one charge', async () => {
    const before = captures();
    const key = randomUUID();
    const held = holdTheGateway();
    logLines.length = 0;
    try {
      const first = sale(key);
      const second = sale(key);
      // One of them holds the key at the gateway; the other is answered at once.
      const answeredFirst = await Promise.race([first, second]);
      expectInProgress(answeredFirst);
      held.release();
      const answers = await Promise.all([first, second]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const done = answers.find((a) => a.status === 200)!;
      expect(done.body.state).toBe('CAPTURED');
      expect(errorLogs()).toEqual([]);

      // Once the first has answered, the twin's retry replays it; the card was charged once.
      const again = await sale(key);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.body).toEqual(done.body);
      expect(captures() - before).toBe(1);
    } finally {
      held.release();
    }
  });

  it('a twin arriving while the first waits at the gateway is 409, not 502, and is not logged as an error', async () => {
    const key = randomUUID();
    const held = holdTheGateway();
    try {
      const first = sale(key);
      await held.reached;
      logLines.length = 0;
      const twin = await sale(key);
      expectInProgress(twin);
      expect(errorLogs()).toEqual([]);
      expect(logLines.length).toBeGreaterThan(0); // the logger does record this service's requests
      held.release();
      expect((await first).status).toBe(200);
    } finally {
      held.release();
    }
  });

  it('a live request keeps its key past the lease: every twin meanwhile is 409, then the answer replays', async () => {
    const before = captures();
    const lease = platform().service.infra.idempotency.leaseSeconds;
    const key = randomUUID();
    const held = holdTheGateway();
    try {
      const first = sale(key);
      await held.reached;
      const until = Date.now() + (lease + 2) * 1000;
      let twins = 0;
      while (Date.now() < until) {
        const twin = await sale(key);
        expectInProgress(twin);
        twins++;
        await sleep(Number(twin.headers.get('retry-after')) * 1000);
      }
      expect(twins).toBeGreaterThanOrEqual(lease);
      held.release();
      const done = await first;
      expect(done.status).toBe(200);
      const again = await sale(key);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.body).toEqual(done.body);
      expect(captures() - before).toBe(1);
    } finally {
      held.release();
    }
  }, 30_000);

  it('a request whose process died at the gateway frees its key within a lease; the retry finishes that transaction and charges once', async () => {
    const before = captures();
    const key = randomUUID();
    const sent = body('31.00');
    const idempotency = platform().service.infra.idempotency;
    // The first run: its record, its transaction recorded INITIATED, the charge sent, and then the
    // process dies before the answer is recorded (nothing renews its lease from then on).
    const begun = await idempotency.begin(
      `partner:${partner.id}`,
      key,
      fingerprintOf('POST', '/api/v1/transactions', sent),
    );
    if (begun.kind !== 'execute') throw new Error(`expected a fresh record, got ${begun.kind}`);
    const startedAt = Date.now();
    const original = gateway().authorizeAndCapture.bind(gateway());
    const dies = jest.spyOn(gateway(), 'authorizeAndCapture').mockImplementation(async (request) => {
      await original(request);
      throw new Error('the process died before the answer was recorded');
    });
    try {
      await expect(
        platform()
          .service.app.get(Charges)
          .charge(
            {
              partnerId: partner.id,
              commandId: begun.commandId,
              fresh: true,
              enabledFeatures: [],
              metadata: {
                actor: `partner-key:${partner.key.slice(4, 12)}`,
                partner_id: partner.id,
                request_id: 'died-at-the-gateway',
                idempotency_key: key,
                causation_id: begun.commandId,
                correlation_id: 'died-at-the-gateway',
              },
              source: 'api',
              disclosureChannel: 'API',
              entryMode: 'KEYED',
            },
            parseTransactionRequest(sent) as ChargeRequest,
          ),
      ).rejects.toThrow('the process died');
    } finally {
      dies.mockRestore();
    }
    expect(captures() - before).toBe(1);

    // The partner retries as told: 409 with Retry-After until the dead run's lease runs down.
    let retry = await partner.client.post('/transactions', sent, { idempotencyKey: key });
    while (retry.status === 409) {
      expectInProgress(retry);
      await sleep(1_000);
      retry = await partner.client.post('/transactions', sent, { idempotencyKey: key });
    }
    // The bound is the point: one lease (with a wide margin), not the 30 s of old.
    expect(Date.now() - startedAt).toBeLessThan((idempotency.leaseSeconds + 6) * 1000);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('x-idempotent-replay')).toBeNull();
    expect(retry.body).toMatchObject({
      id: idFor(begun.commandId, 'transaction', () => begun.commandId),
      state: 'CAPTURED',
      amount: '31.00',
    });
    // The retry finished the first run's transaction; the gateway, idempotent by reference, did
    // not charge again.
    expect(captures() - before).toBe(1);
    const stream = await platform().operator.get(`/platform/streams/transaction-${retry.body.id}/events`);
    expect(stream.body.data.map((e: any) => e.type)).toEqual(['TransactionInitiated', 'TransactionApproved']);
  }, 30_000);

  it('a gateway answer that never came is still 502 gateway_outcome_unknown; the same key resolves it', async () => {
    const key = randomUUID();
    const lost = await sale(key, '40.91');
    expectProblem(lost, 502, 'gateway_outcome_unknown');
    expect(lost.body.retryable).toBe(true);
    // A 502 ends the run's lease at once: the retry takes over without waiting.
    const retry = await sale(key, '40.91');
    expect(retry.status).toBe(200);
    expect(retry.body.state).toBe('CAPTURED');
  });
});
