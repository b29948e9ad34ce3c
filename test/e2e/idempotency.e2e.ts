/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { EventMetadata } from '../../libs/event-store/src';
import { RunPartnerCommand } from '../../libs/partners/src/application/partner-commands';
import { ALL_PARTNER_SCOPES } from '../../libs/platform/src/auth/scopes';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { idFor } from '../../libs/platform/src/http/request-metadata';
import { fingerprintOf } from '../../libs/platform/src/idempotency/idempotency-store';
import { useTestPlatform, type ApiClient, type ApiResponse } from '../support/api';
import { expectProblemDetails } from '../support/problems';

/**
 * Idempotency-Key over real HTTP (spec Limits, ADR 0004): header rules, replay with identical
 * status, body and side effects, per-partner scope, the 24-hour window, in-progress duplicates
 * and recovery after a crash at each point of a request.
 */
describe('idempotency', () => {
  const platform = useTestPlatform();
  const operator = () => platform().operator;

  let counter = 0;
  const partnerBody = (suffix = String(++counter)) => ({
    name: `Idem Partner ${suffix}`,
    contact_email: `idem-${suffix}@example.test`,
    contact_name: 'Ada Lovelace',
  });
  const flagPath = (flag = 'ach_payments') => `/config/feature-flags/me/${flag}`;

  async function events(partnerId: string): Promise<any[]> {
    const res = await operator().get(`/platform/streams/partner-${partnerId}/events?limit=1000`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function partnerCount(): Promise<number> {
    const res = await operator().get('/platform/partners');
    expect(res.status).toBe(200);
    return res.body.pagination.total_count;
  }

  function expectReplayOf(replay: ApiResponse, original: ApiResponse): void {
    expect(original.headers.get('x-idempotent-replay')).toBeNull();
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');
    expect(replay.status).toBe(original.status);
    expect(replay.body).toEqual(original.body);
    expect(replay.headers.get('content-type')).toBe(original.headers.get('content-type'));
  }

  function expectFresh(res: ApiResponse, status: number): void {
    expect(res.status).toBe(status);
    expect(res.headers.get('x-idempotent-replay')).toBeNull();
  }

  /** Metadata as the HTTP layer would have stamped it for an operator write. */
  function operatorMetadata(partnerId: string, key: string, commandId: string): EventMetadata {
    return {
      actor: 'platform-operator',
      partner_id: partnerId,
      request_id: `crashed-${commandId}`,
      idempotency_key: key,
      causation_id: commandId,
      correlation_id: `crashed-${commandId}`,
    };
  }

  /**
   * Begins a record as a request that then "crashes" would have: nothing renews its lease, as
   * no process runs it any more. Returns its command id and lease.
   */
  async function beginAsCrashedRun(scope: string, key: string, method: string, path: string, body: unknown) {
    const outcome = await platform().service.infra.idempotency.begin(
      scope,
      key,
      fingerprintOf(method, `/api/v1${path}`, body),
    );
    if (outcome.kind !== 'execute') throw new Error(`expected a fresh record, got ${outcome.kind}`);
    return { commandId: outcome.commandId, lease: outcome.lease };
  }

  /** Appends a partner command's events as the crashed first run did, and lets read models catch up. */
  async function executeAsFirstRun(command: RunPartnerCommand['command'], metadata: EventMetadata) {
    const result = await platform()
      .service.app.get(CommandBus)
      .execute(new RunPartnerCommand(command, metadata));
    expect(result.alreadyApplied).toBe(false);
    expect(await platform().service.infra.projections.waitFor(result.position!)).toBe(true);
    return result;
  }

  describe('the Idempotency-Key header', () => {
    it.each([
      ['operator', 'POST', '/platform/partners'],
      ['partner', 'PUT', flagPath()],
    ])('is required on a %s %s: 400 naming the header, nothing runs', async (who, method, path) => {
      const partner = await platform().newPartner();
      const client = who === 'operator' ? operator() : partner.client;
      const before = await partnerCount();
      const eventsBefore = (await events(partner.id)).length;
      const body = path === '/platform/partners' ? partnerBody() : { enabled: true };
      const res = await client.call(method, path, { body, idempotencyKey: null });
      const problem = expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'Idempotency-Key' }],
      });
      expect(problem.errors[0].field).toBe('Idempotency-Key');
      expect(await partnerCount()).toBe(before);
      expect(await events(partner.id)).toHaveLength(eventsBefore);
    });

    it('is checked before the body: a missing key on an invalid body names only the header', async () => {
      const res = await operator().post('/platform/partners', { nope: 1 }, { idempotencyKey: null });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'Idempotency-Key' }],
      });
    });

    it.each([
      ['129 characters', 'k'.repeat(129)],
      ['empty', ''],
      ['a space', 'has space'],
      ['a slash', 'a/b'],
      ['a plus (base64)', 'ab+c'],
      ['padding (base64)', 'abc='],
      ['non-ASCII', 'clé-1'],
    ])('refuses a key with %s: 400 validation_error', async (_what, key) => {
      const before = await partnerCount();
      const res = await operator().post('/platform/partners', partnerBody(), { idempotencyKey: key });
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'Idempotency-Key' }],
      });
      expect(await partnerCount()).toBe(before);
    });

    it.each([
      ['128 characters', 'k'.repeat(127) + counter],
      ['base64url', `${Buffer.from(randomUUID()).toString('base64url')}_-`],
      ['dots, colons and underscores', `order-2026.11.23_a:${randomUUID()}`],
    ])('accepts a key with %s', async (_what, key) => {
      const res = await operator().post('/platform/partners', partnerBody(), {
        idempotencyKey: key.slice(-128),
      });
      expectFresh(res, 201);
    });

    it.each(['hpp:', 'recurring:', 'rb:', 'inv-charge:', 'inv-installment:'])(
      'refuses the reserved prefix %s: 400 idempotency_key_reserved',
      async (prefix) => {
        const before = await partnerCount();
        const res = await operator().post('/platform/partners', partnerBody(), {
          idempotencyKey: `${prefix}${randomUUID()}`,
        });
        const problem = expectProblemDetails(res, {
          status: 400,
          code: 'idempotency_key_reserved',
          title: 'Bad Request',
          errors: [{ field: 'Idempotency-Key' }],
        });
        expect(problem.detail).toContain(prefix);
        expect(await partnerCount()).toBe(before);
      },
    );

    it('refuses a reserved prefix on a partner route too', async () => {
      const partner = await platform().newPartner();
      const res = await partner.client.put(
        flagPath(),
        { enabled: true },
        { idempotencyKey: `hpp:${randomUUID()}` },
      );
      expectProblemDetails(res, {
        status: 400,
        code: 'idempotency_key_reserved',
        title: 'Bad Request',
        errors: [{ field: 'Idempotency-Key' }],
      });
    });

    it('does not take a reserved word without its colon as reserved', async () => {
      const res = await operator().post('/platform/partners', partnerBody(), {
        idempotencyKey: `hpp-${randomUUID()}`,
      });
      expectFresh(res, 201);
    });

    it('is not needed on GET and DELETE', async () => {
      const partner = await platform().newPartner();
      const list = await operator().get('/platform/partners', { idempotencyKey: null });
      expect(list.status).toBe(200);
      const read = await operator().get(`/platform/partners/${partner.id}`, { idempotencyKey: null });
      expect(read.status).toBe(200);
      expect(await partner.client.get('/partner/me')).toMatchObject({ status: 200 });

      const deleted = await operator().delete(`/platform/partners/${partner.id}/api-keys/${partner.keyId}`, {
        idempotencyKey: null,
      });
      expect(deleted.status).toBe(204);
      expect((await partner.client.get('/partner/me')).status).toBe(401);
    });
  });

  describe('replay', () => {
    it('answers the same key and body with the stored response and creates nothing', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const first = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(first, 201);
      const count = await partnerCount();
      const streamLength = (await events(first.body.id)).length;

      const second = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectReplayOf(second, first);
      const third = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectReplayOf(third, first);

      expect(await partnerCount()).toBe(count);
      expect(await events(first.body.id)).toHaveLength(streamLength);
    });

    it('replays a partner write with its original answer, not the current state, and appends nothing', async () => {
      const partner = await platform().newPartner();
      const key = randomUUID();
      const on = await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectFresh(on, 200);
      expect(on.body.enabled).toBe(true);
      const off = await partner.client.put(flagPath(), { enabled: false });
      expectFresh(off, 200);
      expect(off.body.enabled).toBe(false);
      const before = await events(partner.id);
      expect(before.filter((e) => e.type === 'FeatureFlagChanged')).toHaveLength(2);

      const replay = await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectReplayOf(replay, on);
      expect(replay.body.enabled).toBe(true);
      expect(await events(partner.id)).toHaveLength(before.length);
      const current = await partner.client.get('/config/feature-flags/me');
      expect(current.status).toBe(200);
      expect(JSON.stringify(current.body)).not.toBe(JSON.stringify(on.body));
    });

    it('ignores JSON key order and whitespace when comparing bodies', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const first = await operator().post('/platform/partners', JSON.stringify(body), {
        idempotencyKey: key,
      });
      expectFresh(first, 201);
      const reordered = `{ "contact_name": ${JSON.stringify(body.contact_name)},\n  "name": ${JSON.stringify(
        body.name,
      )}, "contact_email": ${JSON.stringify(body.contact_email)} }`;
      const second = await operator().post('/platform/partners', reordered, { idempotencyKey: key });
      expectReplayOf(second, first);
    });

    it('refuses the same key with a different body: 422 idempotency_key_reused', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const first = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(first, 201);
      const count = await partnerCount();
      const res = await operator().post(
        '/platform/partners',
        { ...body, name: 'Something Else' },
        { idempotencyKey: key },
      );
      expectProblemDetails(res, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Unprocessable Entity',
      });
      expect(res.headers.get('x-idempotent-replay')).toBeNull();
      expect(await partnerCount()).toBe(count);
      // The refusal is not stored in place of the answer: the original still replays.
      expectReplayOf(await operator().post('/platform/partners', body, { idempotencyKey: key }), first);
    });

    it('refuses a partner reusing a key with a different body', async () => {
      const partner = await platform().newPartner();
      const key = randomUUID();
      expectFresh(await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key }), 200);
      const length = (await events(partner.id)).length;
      const res = await partner.client.put(flagPath(), { enabled: false }, { idempotencyKey: key });
      expectProblemDetails(res, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Unprocessable Entity',
      });
      expect(await events(partner.id)).toHaveLength(length);
    });

    it('refuses the same key and body on another path: 422', async () => {
      const partner = await platform().newPartner();
      const key = randomUUID();
      expectFresh(
        await partner.client.put(flagPath('ach_payments'), { enabled: true }, { idempotencyKey: key }),
        200,
      );
      const length = (await events(partner.id)).length;
      const res = await partner.client.put(
        flagPath('installments'),
        { enabled: true },
        { idempotencyKey: key },
      );
      expectProblemDetails(res, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Unprocessable Entity',
      });
      expect(await events(partner.id)).toHaveLength(length);

      const opKey = randomUUID();
      expectFresh(await operator().post('/platform/partners', partnerBody(), { idempotencyKey: opKey }), 201);
      const other = await operator().post(
        `/platform/partners/${partner.id}/api-keys`,
        {},
        { idempotencyKey: opKey },
      );
      expectProblemDetails(other, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Unprocessable Entity',
      });
    });

    it('replays a stored 4xx answer with the replay header', async () => {
      const key = randomUUID();
      const path = `/platform/partners/${randomUUID()}/api-keys`;
      const first = await operator().post(
        path,
        {},
        { idempotencyKey: key, headers: { 'x-request-id': 'first-404' } },
      );
      const original = expectProblemDetails(first, {
        status: 404,
        code: 'partner_not_found',
        title: 'Not Found',
      });
      expect(original.request_id).toBe('first-404');
      expect(first.headers.get('x-idempotent-replay')).toBeNull();

      const second = await operator().post(
        path,
        {},
        { idempotencyKey: key, headers: { 'x-request-id': 'second-404' } },
      );
      const replayed = expectProblemDetails(second, {
        status: 404,
        code: 'partner_not_found',
        title: 'Not Found',
      });
      expect(second.headers.get('x-idempotent-replay')).toBe('true');
      // The original answer byte for byte: its request_id names the request that first got it;
      // the replaying request's own id is in its x-request-id header.
      expect(second.text).toBe(first.text);
      expect(replayed.request_id).toBe('first-404');
      expect(second.headers.get('x-request-id')).toBe('second-404');
    });

    it('replays a stored validation error rather than re-validating', async () => {
      const key = randomUUID();
      const body = { name: 'Only A Name' };
      const first = await operator().post('/platform/partners', body, { idempotencyKey: key });
      const original = expectProblemDetails(first, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
      });
      const second = await operator().post('/platform/partners', body, { idempotencyKey: key });
      const replayed = expectProblemDetails(second, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
      });
      expect(second.headers.get('x-idempotent-replay')).toBe('true');
      expect(replayed.errors).toEqual(original.errors);
      expect(second.text).toBe(first.text);
    });
  });

  describe('scope', () => {
    it('keeps keys per partner: two partners using one key both execute', async () => {
      const [a, b] = [await platform().newPartner(), await platform().newPartner()];
      const key = `shared-${randomUUID()}`;
      const ra = await a.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      const rb = await b.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectFresh(ra, 200);
      expectFresh(rb, 200);
      for (const partner of [a, b]) {
        const changed = (await events(partner.id)).filter((e) => e.type === 'FeatureFlagChanged');
        expect(changed).toHaveLength(1);
        expect(changed[0].metadata).toMatchObject({ idempotency_key: key, partner_id: partner.id });
      }
      // And each partner still replays its own answer.
      expectReplayOf(await b.client.put(flagPath(), { enabled: true }, { idempotencyKey: key }), rb);
    });

    it('shares keys between the API keys of one partner (the scope is the partner, not the key)', async () => {
      const partner = await platform().newPartner();
      const second = await operator().post(`/platform/partners/${partner.id}/api-keys`, {});
      expect(second.status).toBe(201);
      const key = randomUUID();
      const first = await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectFresh(first, 200);
      const again = await platform()
        .as(second.body.api_key)
        .put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectReplayOf(again, first);
    });

    it('keeps the operator and a partner apart', async () => {
      const partner = await platform().newPartner();
      const key = `shared-${randomUUID()}`;
      expectFresh(await operator().post('/platform/partners', partnerBody(), { idempotencyKey: key }), 201);
      const res = await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectFresh(res, 200);
      expect((await events(partner.id)).filter((e) => e.type === 'FeatureFlagChanged')).toHaveLength(1);
    });
  });

  describe('a request still running', () => {
    it('runs concurrent duplicates once: the others wait (409) or replay', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const before = await partnerCount();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => operator().post('/platform/partners', body, { idempotencyKey: key })),
      );
      const fresh = answers.filter((a) => a.status === 201 && a.headers.get('x-idempotent-replay') === null);
      expect(fresh).toHaveLength(1);
      for (const other of answers.filter((a) => a !== fresh[0])) {
        if (other.status === 201) expectReplayOf(other, fresh[0]);
        else
          expectProblemDetails(other, {
            status: 409,
            code: 'idempotency_key_in_progress',
            title: 'Conflict',
          });
      }
      expect(await partnerCount()).toBe(before + 1);
    });

    it('answers a duplicate with 409 idempotency_key_in_progress and Retry-After; it runs after abandon', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const { commandId, lease } = await beginAsCrashedRun(
        'platform',
        key,
        'POST',
        '/platform/partners',
        body,
      );
      const before = await partnerCount();

      const busy = await operator().post('/platform/partners', body, { idempotencyKey: key });
      const problem = expectProblemDetails(busy, {
        status: 409,
        code: 'idempotency_key_in_progress',
        title: 'Conflict',
      });
      expect(problem.retryable).toBe(true);
      const retryAfter = Number(busy.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      // About one heartbeat of the running request, not the lease (ADR 0004).
      expect(retryAfter).toBeLessThanOrEqual(2);
      expect(await partnerCount()).toBe(before);

      await platform().service.infra.idempotency.abandon('platform', key, lease);
      const retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(retry, 201);
      expect(retry.body.id).toBe(idFor(commandId, 'partner', randomUUID));
      expect(await partnerCount()).toBe(before + 1);
    });

    it('answers 409 to a partner too, in the partner scope only', async () => {
      const partner = await platform().newPartner();
      const key = randomUUID();
      await beginAsCrashedRun(`partner:${partner.id}`, key, 'PUT', flagPath(), { enabled: true });
      const busy = await partner.client.put(flagPath(), { enabled: true }, { idempotencyKey: key });
      expectProblemDetails(busy, { status: 409, code: 'idempotency_key_in_progress', title: 'Conflict' });
      expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
      // Another partner is not blocked by it.
      const other = await platform().newPartner();
      expectFresh(await other.client.put(flagPath(), { enabled: true }, { idempotencyKey: key }), 200);
    });
  });

  describe('crash recovery', () => {
    it('(a) crash before any event: the retry executes once', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const { commandId, lease } = await beginAsCrashedRun(
        'platform',
        key,
        'POST',
        '/platform/partners',
        body,
      );
      await platform().service.infra.idempotency.abandon('platform', key, lease);
      const before = await partnerCount();

      const retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(retry, 201);
      expect(retry.body.id).toBe(idFor(commandId, 'partner', randomUUID));
      const stream = await events(retry.body.id);
      expect(stream.map((e) => e.type)).toEqual(['PartnerCreated']);
      expect(stream[0].metadata.causation_id).toBe(commandId);
      expect(await partnerCount()).toBe(before + 1);
      expectReplayOf(await operator().post('/platform/partners', body, { idempotencyKey: key }), retry);
    });

    it('(b) crash after the events, before the answer: the retry answers the same partner, no second one', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const { commandId, lease } = await beginAsCrashedRun(
        'platform',
        key,
        'POST',
        '/platform/partners',
        body,
      );
      const partnerId = idFor(commandId, 'partner', randomUUID);
      await executeAsFirstRun(
        {
          type: 'CreatePartner',
          partnerId,
          name: body.name,
          contactEmail: body.contact_email,
          contactName: body.contact_name,
          dba: null,
          businessAddress: null,
        },
        operatorMetadata(partnerId, key, commandId),
      );
      await platform().service.infra.idempotency.abandon('platform', key, lease);
      const before = await partnerCount();

      const retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(retry, 201);
      expect(retry.body).toMatchObject({ id: partnerId, name: body.name, contact_email: body.contact_email });
      const stream = await events(partnerId);
      expect(stream.filter((e) => e.type === 'PartnerCreated')).toHaveLength(1);
      expect(stream).toHaveLength(1);
      expect(await partnerCount()).toBe(before);
      expectReplayOf(await operator().post('/platform/partners', body, { idempotencyKey: key }), retry);
    });

    it('(b2) crash after the events, nobody abandons: the key is free within one lease, and the retry appends nothing', async () => {
      // A process that died renews nothing: its lease runs down by itself (a few seconds), and
      // the retry, waiting as Retry-After says, takes over under the same command id.
      const key = randomUUID();
      const body = partnerBody();
      const { commandId } = await beginAsCrashedRun('platform', key, 'POST', '/platform/partners', body);
      const startedAt = Date.now();
      const partnerId = idFor(commandId, 'partner', randomUUID);
      await executeAsFirstRun(
        {
          type: 'CreatePartner',
          partnerId,
          name: body.name,
          contactEmail: body.contact_email,
          contactName: body.contact_name,
          dba: null,
          businessAddress: null,
        },
        operatorMetadata(partnerId, key, commandId),
      );
      const before = await partnerCount();

      let retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      while (retry.status === 409) {
        expect(retry.body.code).toBe('idempotency_key_in_progress');
        const wait = Number(retry.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(2);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      }
      const lease = platform().service.infra.idempotency.leaseSeconds;
      // The bound is the point: freed after one lease (with a wide margin), not after 30 s.
      expect(Date.now() - startedAt).toBeLessThan((lease + 6) * 1000);
      expectFresh(retry, 201);
      expect(retry.body).toMatchObject({ id: partnerId, name: body.name });
      expect(await events(partnerId)).toHaveLength(1);
      expect(await partnerCount()).toBe(before);
    }, 30_000);

    it('(c) crash after issuing an API key: the retry replaces the lost secret with a working one', async () => {
      const partner = await platform().newPartner();
      const key = randomUUID();
      const path = `/platform/partners/${partner.id}/api-keys`;
      const { commandId, lease } = await beginAsCrashedRun('platform', key, 'POST', path, {});
      const keyId = idFor(commandId, 'api-key', randomUUID);
      const lost = generateKey('csk');
      await executeAsFirstRun(
        {
          type: 'IssueApiKey',
          partnerId: partner.id,
          keyId,
          prefix: lost.prefix,
          keyHash: lost.hash,
          scopes: [...ALL_PARTNER_SCOPES],
        },
        operatorMetadata(partner.id, key, commandId),
      );
      await platform().service.infra.idempotency.abandon('platform', key, lease);

      const retry = await operator().post(path, {}, { idempotencyKey: key });
      expectFresh(retry, 201);
      expect(retry.body.id).toBe(keyId);
      expect(typeof retry.body.api_key).toBe('string');
      expect(retry.body.api_key).not.toBe(lost.key);
      expect((await platform().as(retry.body.api_key).get('/partner/me')).status).toBe(200);
      expect((await platform().as(lost.key).get('/partner/me')).status).toBe(401);

      const stream = await events(partner.id);
      const ofKey = stream.filter((e) => e.data?.keyId === keyId);
      expect(ofKey.map((e) => e.type)).toEqual(['ApiKeyIssued', 'ApiKeyRotated']);
      expect(ofKey[0].metadata.causation_id).toBe(commandId);
      expect(stream.filter((e) => e.type === 'ApiKeyIssued')).toHaveLength(2); // newPartner's and this one

      // Once answered, the answer (with the working secret) replays and nothing else happens.
      const again = await operator().post(path, {}, { idempotencyKey: key });
      expectReplayOf(again, retry);
      expect(await events(partner.id)).toHaveLength(stream.length);
      expect((await platform().as(again.body.api_key).get('/partner/me')).status).toBe(200);
    });

    it('(d) crash after the answer was stored: a plain replay, nothing runs again', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const { commandId } = await beginAsCrashedRun('platform', key, 'POST', '/platform/partners', body);
      const partnerId = idFor(commandId, 'partner', randomUUID);
      await executeAsFirstRun(
        {
          type: 'CreatePartner',
          partnerId,
          name: body.name,
          contactEmail: body.contact_email,
          contactName: body.contact_name,
          dba: null,
          businessAddress: null,
        },
        operatorMetadata(partnerId, key, commandId),
      );
      // The first run's answer as it was stored (a real Partner, told apart by its name).
      const read = await operator().get(`/platform/partners/${partnerId}`);
      const stored = { ...read.body, name: 'answer of the first run' };
      await platform().service.infra.idempotency.complete('platform', key, commandId, {
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: stored,
      });
      const before = await partnerCount();

      const retry = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('x-idempotent-replay')).toBe('true');
      expect(retry.body).toEqual(stored);
      expect(await events(partnerId)).toHaveLength(1);
      expect(await partnerCount()).toBe(before);
    });
  });

  describe('event metadata', () => {
    it('names the actor, partner, request, key and command on an operator write', async () => {
      const key = `meta.${randomUUID()}`;
      const res = await operator().post('/platform/partners', partnerBody(), {
        idempotencyKey: key,
        headers: { 'x-request-id': 'idem-meta-operator' },
      });
      expectFresh(res, 201);
      const [created] = await events(res.body.id);
      expect(created.type).toBe('PartnerCreated');
      expect(created.metadata).toMatchObject({
        actor: 'platform-operator',
        partner_id: res.body.id,
        request_id: 'idem-meta-operator',
        idempotency_key: key,
      });
      expect(created.metadata.causation_id).toMatch(/^[0-9a-f-]{36}$/);
      // The causation id is the idempotency record's command id, from which the partner id derives.
      expect(idFor(created.metadata.causation_id, 'partner', randomUUID)).toBe(res.body.id);
    });

    it('names the partner key as actor on a partner write', async () => {
      const partner = await platform().newPartner();
      const key = `meta:${randomUUID()}`;
      const res = await partner.client.put(
        flagPath(),
        { enabled: true },
        {
          idempotencyKey: key,
          headers: { 'x-request-id': 'idem-meta-partner' },
        },
      );
      expectFresh(res, 200);
      const changed = (await events(partner.id)).filter((e) => e.type === 'FeatureFlagChanged');
      expect(changed).toHaveLength(1);
      const prefix = partner.key.slice(4, 12);
      expect(changed[0].metadata).toMatchObject({
        actor: `partner-key:${prefix}`,
        partner_id: partner.id,
        request_id: 'idem-meta-partner',
        idempotency_key: key,
      });
      expect(changed[0].metadata.causation_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('gives two requests two different command ids', async () => {
      const [a, b] = await Promise.all([
        operator().post('/platform/partners', partnerBody()),
        operator().post('/platform/partners', partnerBody()),
      ]);
      const [ea] = await events(a.body.id);
      const [eb] = await events(b.body.id);
      expect(ea.metadata.causation_id).not.toBe(eb.metadata.causation_id);
      expect(ea.metadata.idempotency_key).not.toBe(eb.metadata.idempotency_key);
    });
  });

  describe('the 24-hour window (sandbox clock)', () => {
    async function advance(client: ApiClient, seconds: number): Promise<void> {
      const res = await client.post('/platform/sandbox/clock', { advance_seconds: seconds });
      expect(res.status).toBe(200);
    }

    it('treats a key older than 24 hours as fresh', async () => {
      const key = randomUUID();
      const first = await operator().post('/platform/partners', partnerBody(), { idempotencyKey: key });
      expectFresh(first, 201);
      const changed = partnerBody();

      await advance(operator(), 86_400 - 100);
      const early = await operator().post('/platform/partners', changed, { idempotencyKey: key });
      expectProblemDetails(early, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Unprocessable Entity',
      });

      await advance(operator(), 100);
      const before = await partnerCount();
      const fresh = await operator().post('/platform/partners', changed, { idempotencyKey: key });
      expectFresh(fresh, 201);
      expect(fresh.body.id).not.toBe(first.body.id);
      expect(fresh.body.name).toBe(changed.name);
      expect(await partnerCount()).toBe(before + 1);
      // The key now belongs to the new request.
      expectReplayOf(await operator().post('/platform/partners', changed, { idempotencyKey: key }), fresh);
    });

    it('runs the same key and body again after 24 hours, as a new request', async () => {
      const key = randomUUID();
      const body = partnerBody();
      const first = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(first, 201);
      await advance(operator(), 86_400);
      const again = await operator().post('/platform/partners', body, { idempotencyKey: key });
      expectFresh(again, 201);
      expect(again.body.id).not.toBe(first.body.id);
    });
  });
});
