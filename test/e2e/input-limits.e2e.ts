/* eslint-disable @typescript-eslint/no-explicit-any -- problem bodies are JSON read freely */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import {
  MAX_BODY_ARRAY_LENGTH,
  MAX_BODY_DEPTH,
  MAX_BODY_STRING_LENGTH,
} from '../../libs/platform/src/http/content-type';
import { OPERATOR_KEY, useTestPlatform, type ApiResponse } from '../support/api';
import { expectProblem } from '../support/problems';

const MiB = 1024 * 1024;

/**
 * The input limits of docs/input.md ("Limits"), each one past its bound: a 4xx problem+json that
 * names what is too large; at the bound, the request is not refused for that limit.
 */
describe('input limits, each at its bound and one past it', () => {
  const platform = useTestPlatform();
  const partnerBody = { name: 'Limits Inc', contact_email: 'limits@example.test', contact_name: 'Ada' };

  /** A raw POST of `text` as JSON with the operator key (no ApiClient: the body is sent as is). */
  const post = async (path: string, text: string): Promise<ApiResponse> => {
    const res = await fetch(`${platform().service.url}/api/v1${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${OPERATOR_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: text,
    });
    const raw = await res.text();
    let body: any = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      /* not JSON: the assertion says so */
    }
    return { status: res.status, headers: res.headers, body };
  };
  const limitError = (res: ApiResponse, field: string) =>
    (res.body?.errors ?? []).find((e: any) => e.field === field)?.message as string | undefined;

  it(`a body of 1 MiB is read; one byte more is 413`, async () => {
    const json = JSON.stringify(partnerBody);
    const atLimit = await post('/platform/partners', json + ' '.repeat(MiB - json.length));
    expect(atLimit.status).toBe(201);
    const over = await post('/platform/partners', json + ' '.repeat(MiB - json.length + 1));
    expectProblem(over, 413, 'payload_too_large');
  });

  it(`headers up to ${maxHeaderSize} bytes are read; past them 431`, async () => {
    const health = (size: number) =>
      fetch(`${platform().service.url}/api/v1/health`, { headers: { 'x-padding': 'a'.repeat(size) } });
    expect((await health(maxHeaderSize - 1024)).status).toBe(200);
    const over = await health(maxHeaderSize + 1);
    expect(over.status).toBe(431);
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await over.json()) as any).code).toBe('request_header_fields_too_large');
  });

  it('an overlong path id is a 400 problem naming it, never a 414 or a 5xx', async () => {
    const partner = await platform().newPartner();
    const at = await partner.client.get(`/merchants/${'a'.repeat(256)}`);
    expectProblem(at, 400, 'validation_error');
    const over = await partner.client.get(`/merchants/${'a'.repeat(4096)}`);
    expectProblem(over, 400, 'validation_error');
  });

  it(`a body nested ${MAX_BODY_DEPTH} levels is read; ${MAX_BODY_DEPTH + 1} is 400`, async () => {
    // name: [[…]] — the object is level 1, each array one more.
    const nested = (levels: number) =>
      JSON.stringify({
        ...partnerBody,
        dba: JSON.parse(`${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`),
      });
    const at = await post('/platform/partners', nested(MAX_BODY_DEPTH));
    expect(at.status).toBe(400);
    expect(limitError(at, 'body')).toBeUndefined();
    const over = await post('/platform/partners', nested(MAX_BODY_DEPTH + 1));
    expectProblem(over, 400, 'validation_error');
    expect(limitError(over, 'body')).toBe(`must not nest deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it(`a string of ${MAX_BODY_STRING_LENGTH} characters is read; one more is 400 naming the field`, async () => {
    const withName = (length: number) => JSON.stringify({ ...partnerBody, name: 'n'.repeat(length) });
    const at = await post('/platform/partners', withName(MAX_BODY_STRING_LENGTH));
    expectProblem(at, 400, 'validation_error');
    expect(limitError(at, 'name')).not.toBe(`must be at most ${MAX_BODY_STRING_LENGTH} characters`);
    const over = await post('/platform/partners', withName(MAX_BODY_STRING_LENGTH + 1));
    expectProblem(over, 400, 'validation_error');
    expect(limitError(over, 'name')).toBe(`must be at most ${MAX_BODY_STRING_LENGTH} characters`);
  });

  it(`an array of ${MAX_BODY_ARRAY_LENGTH} items is read; one more is 400 naming the field`, async () => {
    const partner = await platform().newPartner();
    const withScopes = (length: number) =>
      JSON.stringify({ scopes: new Array(length).fill('merchant:read') });
    const at = await post(`/platform/partners/${partner.id}/api-keys`, withScopes(MAX_BODY_ARRAY_LENGTH));
    expect(limitError(at, 'scopes')).not.toBe(`must have at most ${MAX_BODY_ARRAY_LENGTH} items`);
    const over = await post(
      `/platform/partners/${partner.id}/api-keys`,
      withScopes(MAX_BODY_ARRAY_LENGTH + 1),
    );
    expectProblem(over, 400, 'validation_error');
    expect(limitError(over, 'scopes')).toBe(`must have at most ${MAX_BODY_ARRAY_LENGTH} items`);
  });
});
