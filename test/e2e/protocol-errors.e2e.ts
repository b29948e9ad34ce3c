import { randomUUID } from 'node:crypto';
import { OPERATOR_KEY, useTestPlatform, type ApiResponse } from '../support/api';
import { expectProblemDetails } from '../support/problems';
import { rawRequest, type RawAnswer } from '../support/raw-http';
import { checkedFetch } from '../support/checked-fetch';

/**
 * Requests refused at the HTTP level, before any route (issue 15, point 5): problem+json like every
 * other error, with `Connection: close`, never Fastify's `{"error","message","statusCode"}`; and a
 * payer's hosted page answers an HTML page instead. Bodies declared in a charset other than UTF-8
 * are 415.
 */
describe('protocol-level refusals', () => {
  const platform = useTestPlatform();
  const session = randomUUID();

  const send = (bytes: string) => rawRequest(platform().service.url, bytes);

  /** A raw answer as the shared problem assertions take it. */
  function asResponse(answer: RawAnswer): ApiResponse {
    let body: unknown = answer.body;
    try {
      body = JSON.parse(answer.body);
    } catch {
      /* not JSON: the assertion will say so */
    }
    return { status: answer.status ?? 0, headers: new Headers(answer.headers), body };
  }

  function expectClosingProblem(
    answer: RawAnswer,
    status: number,
    code: string,
    title: string,
    fields?: string[],
  ) {
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    return expectProblemDetails(asResponse(answer), {
      status,
      code,
      title,
      ...(fields ? { errors: fields.map((field) => ({ field })) } : {}),
    });
  }

  function expectPayerPage(answer: RawAnswer, status: number) {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatch(/^<!DOCTYPE html>/);
    expect(answer.body).toContain('<h1>');
    expect(answer.body).not.toContain('"statusCode"');
  }

  const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;

  describe('answered as problem+json with Connection: close', () => {
    it('a malformed request line is 400 naming the request', async () => {
      const answer = await send('GARBAGE\r\n\r\n');
      expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['request']);
    });

    it.each([
      ['Content-Length then Transfer-Encoding', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n'],
      ['Transfer-Encoding then Content-Length', 'Transfer-Encoding: chunked\r\nContent-Length: 5\r\n'],
    ])('both framings (%s) is 400 naming content-length', async (_, framing) => {
      const answer = await send(
        `POST /api/v1/platform/partners HTTP/1.1\r\nHost: localhost\r\n${framing}\r\n0\r\n\r\n`,
      );
      const body = expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['content-length']);
      expect(body.errors[0].message).toBe('must not be sent together with Transfer-Encoding');
    });

    it('a negative Content-Length is 400 naming content-length', async () => {
      const answer = await send(
        'POST /api/v1/platform/partners HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n',
      );
      expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['content-length']);
    });

    it('a NUL in a header is 400 naming the headers', async () => {
      const answer = await send(get('/api/v1/health', 'X-Note: a\0b\r\n'));
      expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['headers']);
    });

    it('a method HTTP does not know is 501 not_implemented', async () => {
      const answer = await send('FROB /api/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expectClosingProblem(answer, 501, 'not_implemented', 'Not Implemented');
    });

    it('64 KB of headers is 431', async () => {
      const answer = await send(get('/api/v1/health', `X-Big: ${'a'.repeat(64 * 1024)}\r\n`));
      expectClosingProblem(answer, 431, 'request_header_fields_too_large', 'Request Header Fields Too Large');
    });

    it('an HTTP/1.1 request without Host is 400 naming host', async () => {
      const answer = await send('GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n');
      expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['host']);
    });

    it('an expectation other than 100-continue is 417 naming expect', async () => {
      const answer = await send(get('/api/v1/health', 'Expect: teapot\r\n'));
      expectClosingProblem(answer, 417, 'expectation_failed', 'Expectation Failed', ['expect']);
    });

    it('a method HTTP knows but no route takes is 405 problem+json (the router answers it)', async () => {
      const answer = await send(
        'PROPFIND /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expectProblemDetails(asResponse(answer), {
        status: 405,
        code: 'method_not_allowed',
        title: 'Method Not Allowed',
      });
    });

    it('the partner API under /hpp/sessions keeps problem+json', async () => {
      const answer = await send(get(`/api/v1/hpp/sessions/${session}`, 'X-Note: a\0b\r\n'));
      expectClosingProblem(answer, 400, 'validation_error', 'Bad Request', ['headers']);
    });
  });

  describe("a payer's hosted page answers HTML", () => {
    it.each([
      ['a NUL in a header', get(`/api/v1/hpp/${session}`, 'X-Note: a\0b\r\n'), 400],
      ['64 KB of headers', get(`/api/v1/hpp/${session}/result`, `X-Big: ${'a'.repeat(64 * 1024)}\r\n`), 431],
      ['an unknown method', `FROB /api/v1/hpp/${session} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 501],
    ])('%s', async (_, bytes, status) => {
      const answer = await send(bytes);
      expectPayerPage(answer, status);
      expect(answer.headers.connection).toBe('close');
    });

    it('a form in another charset, or not a form at all, is a 415 page', async () => {
      for (const type of ['application/x-www-form-urlencoded; charset=iso-8859-1', 'text/plain']) {
        const res = await checkedFetch(`${platform().service.url}/api/v1/hpp/${session}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: 'card_number=4111111111111111',
        });
        const answer: RawAnswer = {
          text: '',
          status: res.status,
          headers: Object.fromEntries(res.headers),
          body: await res.text(),
          closed: true,
        };
        expectPayerPage(answer, 415);
      }
    });
  });

  describe('charsets', () => {
    const partnerBody = JSON.stringify({
      name: 'Charset Inc',
      contact_email: 'charset@example.test',
      contact_name: 'Ada Lovelace',
    });
    const post = (contentType: string, body: string | Uint8Array = partnerBody) =>
      checkedFetch(`${platform().service.url}/api/v1/platform/partners`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${OPERATOR_KEY}`,
          'idempotency-key': randomUUID(),
          'content-type': contentType,
        },
        body,
      });
    const count = async () =>
      (await platform().operator.get('/platform/partners')).body.pagination.total_count as number;

    it.each([
      'application/json; charset=utf-16',
      'application/json; charset="UTF-16LE"',
      'application/json;charset=iso-8859-1',
      'application/json; charset=us-ascii',
    ])('%s is 415 naming content-type, and creates nothing', async (type) => {
      const before = await count();
      const res = await post(type, Buffer.from(partnerBody, type.includes('16') ? 'utf16le' : 'latin1'));
      const body = expectProblemDetails(
        { status: res.status, headers: res.headers, body: await res.json() },
        {
          status: 415,
          code: 'unsupported_media_type',
          title: 'Unsupported Media Type',
          errors: [{ field: 'content-type' }],
        },
      );
      expect(body.detail).toMatch(/UTF-8/);
      expect(await count()).toBe(before);
    });

    it.each(['application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'application/json'])(
      '%s is read',
      async (type) => {
        expect((await post(type)).status).toBe(201);
      },
    );
  });
});
