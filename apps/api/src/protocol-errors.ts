import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import {
  PROBLEM_CONTENT_TYPE,
  problem,
  problemTypeFor,
  type Problem,
} from '../../../libs/platform/src/problem/problem';
import { isPayerPage, PAYER_ERROR_HEADERS, payerErrorPage } from './payer-error-page';

/**
 * Requests Node's HTTP parser refuses before Fastify ever sees them (a malformed request line,
 * both Content-Length and Transfer-Encoding, a negative length, an unknown method, a NUL in a
 * header, headers over the size limit, a client too slow to send its request). They are answered
 * like every other error: problem+json (HTML on a payer's hosted page), then the connection is
 * closed, since the rest of its bytes cannot be trusted to frame another request.
 */
export type ClientError = Error & { code?: string; reason?: string; rawPacket?: unknown };

/** RFC 9110 `token`: what a method may be spelled with. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** The request line, when the bytes that failed to parse begin with one. */
function requestLine(raw: unknown): { method: string; target: string } | null {
  if (!Buffer.isBuffer(raw)) return null;
  const match = /^([^ \r\n]+) ([^ \r\n]+) HTTP\/\d\.\d\r?\n/.exec(raw.subarray(0, 8192).toString('latin1'));
  return match ? { method: match[1], target: match[2] } : null;
}

const REQUEST_LINE = 'must begin with a request line such as "GET /api/v1/health HTTP/1.1"';

/**
 * Both framings at once is the request-smuggling shape: llhttp reports it under either header's
 * code, depending on which came first, with this reason.
 */
const BOTH_FRAMINGS = /can't be present with/;
const BOTH = { field: 'content-length', message: 'must not be sent together with Transfer-Encoding' };

/** Why the parser refused, as the field a client has to fix (llhttp's error codes). */
const MALFORMED: Record<string, { field: string; message: string }> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: { field: 'content-length', message: 'must be sent once' },
  HPE_INVALID_CONTENT_LENGTH: { field: 'content-length', message: 'must be a non-negative whole number' },
  HPE_INVALID_TRANSFER_ENCODING: { field: 'transfer-encoding', message: 'must end with chunked' },
  HPE_INVALID_HEADER_TOKEN: {
    field: 'headers',
    message: 'a header name or value holds a character HTTP does not allow (such as NUL or a bare CR)',
  },
  HPE_INVALID_CHUNK_SIZE: { field: 'body', message: 'is not valid chunked encoding' },
  HPE_INVALID_METHOD: { field: 'request', message: REQUEST_LINE },
  HPE_INVALID_URL: { field: 'request', message: REQUEST_LINE },
  HPE_INVALID_VERSION: { field: 'request', message: 'must be HTTP/1.1 or HTTP/1.0' },
  HPE_INVALID_CONSTANT: { field: 'request', message: REQUEST_LINE },
};

/** The problem a refused request is answered with; nothing of the request is echoed in it. */
export function protocolProblem(error: ClientError): Problem {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(408, 'request_timeout', 'the request was not received in time; send it again', {
        retryable: true,
      });
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        431,
        'request_header_fields_too_large',
        `the request line and headers exceed ${maxHeaderSize} bytes`,
      );
  }
  const line = requestLine(error.rawPacket);
  // A well-formed request line whose method HTTP knows nothing of: RFC 9110 §15.6.2 says 501.
  if (error.code === 'HPE_INVALID_METHOD' && line && TOKEN.test(line.method)) {
    return problem(
      501,
      'not_implemented',
      'the request method is not implemented; the API uses GET, POST, PUT, PATCH and DELETE',
    );
  }
  const what = BOTH_FRAMINGS.test(error.reason ?? '')
    ? BOTH
    : (MALFORMED[error.code ?? ''] ?? { field: 'request', message: 'is not valid HTTP/1.1' });
  return problem(400, 'validation_error', `the request is malformed: ${what.field} ${what.message}`, {
    errors: [what],
  });
}

function responseHead(
  status: number,
  title: string,
  headers: Record<string, string>,
  length: number,
): string {
  const lines = [
    `HTTP/1.1 ${status} ${title}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${length}`,
    `date: ${new Date().toUTCString()}`,
    'connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The bytes of the answer: problem+json, or the payer's HTML page when the path is one. */
function answer(body: Problem, target: string | undefined): string {
  const requestId = String(body.request_id);
  if (isPayerPage(target)) {
    const html = payerErrorPage(body.status);
    const head = { ...PAYER_ERROR_HEADERS, 'x-request-id': requestId };
    return responseHead(body.status, body.title, head, Buffer.byteLength(html)) + html;
  }
  const json = JSON.stringify(body);
  const head = { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, 'x-request-id': requestId };
  return responseHead(body.status, body.title, head, Buffer.byteLength(json)) + json;
}

/** Fastify's `clientErrorHandler`: answers, logs the refusal (never the request's bytes), closes. */
export function clientErrorHandler(logger: Logger) {
  return (error: ClientError, socket: Socket): void => {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way cannot be followed by another on the same bytes (as Node does).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refused = protocolProblem(error);
    const server = (socket as Socket & { server?: object }).server;
    const body = { ...refused, type: problemTypeFor(server, refused.type), request_id: randomUUID() };
    logger.debug(
      { code: error.code, status: body.status, request_id: body.request_id },
      'refused a request HTTP could not parse',
    );
    socket.end(answer(body, requestLine(error.rawPacket)?.target), () => socket.destroy());
  };
}

/**
 * `Expect` other than `100-continue` (Node would answer a bare 417). RFC 9110 §10.1.1: 417 for an
 * expectation the server cannot meet.
 */
export function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  const refused = problem(
    417,
    'expectation_failed',
    'the only expectation supported is "Expect: 100-continue"',
    {
      errors: [{ field: 'expect', message: 'must be 100-continue or absent' }],
    },
  );
  const server = (request.socket as Socket & { server?: object }).server;
  const body: Problem = { ...refused, type: problemTypeFor(server, refused.type), request_id: randomUUID() };
  const payer = isPayerPage(request.url);
  const text = payer ? payerErrorPage(417) : JSON.stringify(body);
  response.writeHead(417, {
    ...(payer ? PAYER_ERROR_HEADERS : { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8` }),
    'x-request-id': String(body.request_id),
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  response.end(text);
}
