import { validatorFor, type OpenApiValidator } from './openapi-validator';

/**
 * `fetch` for the end-to-end tests: each exchange with a service under test is checked against
 * the OpenAPI document that service serves (docs/adr/0007-openapi-from-code.md), and a mismatch
 * fails the call, and so the test that made it, naming the method, the route, the status and
 * ajv's error path. A service is known by its origin: the in-process service registers itself when
 * it starts (test/support/app.ts), a real process once it is healthy (test/support/process.ts).
 * A URL of no known service (a webhook receiver, a stopped service) is fetched unchecked.
 */
const services = new Map<string, Checker>();

/** A validator, or one still being read from its service (an exchange waits for it). */
export type Checker = OpenApiValidator | Promise<OpenApiValidator>;

/** Checks every exchange with `baseUrl` against `validator` until the returned function is called. */
export function checkExchangesWith(baseUrl: string, validator: Checker): () => void {
  const origin = new URL(baseUrl).origin;
  services.set(origin, validator);
  return () => {
    if (services.get(origin) === validator) services.delete(origin);
  };
}

/**
 * The validator of the document the service at `baseUrl` serves (compiled once per process per
 * document). A database probe that timed out on a busy machine answers 503 for a moment: waited out.
 * Read on a connection that is not kept alive: the compile holds this process for a moment, and a
 * kept-alive connection the service closed meanwhile would be reused by the next request before
 * its close is seen ("other side closed").
 */
export async function documentOf(baseUrl: string): Promise<OpenApiValidator> {
  const read = () => fetch(`${baseUrl}/api/v1/openapi.json`, { headers: { connection: 'close' } });
  let document = await read();
  for (let tries = 0; document.status === 503 && tries < 20; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    document = await read();
  }
  if (document.status !== 200) {
    throw new Error(`GET /api/v1/openapi.json answered ${document.status}: ${await document.text()}`);
  }
  return validatorFor(await document.text());
}

/** The validator of the service at `url`'s origin, if one is known now. */
export function registeredAt(url: URL): Checker | undefined {
  return services.get(url.origin);
}

/** `fetch`, with the exchange checked against the document of the service it went to, if known. */
export async function checkedFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input);
  return exchange(registeredAt(url), url, init);
}

/** One request, checked against `validator` when there is one; `sent` is the body as the test gave it. */
export async function exchange(
  checker: Checker | undefined,
  url: URL,
  init: RequestInit,
  sent: unknown = bodyOf(init.body),
): Promise<Response> {
  const res = await fetch(url, init);
  if (!checker) return res;
  const validator = await checker;
  const final = res.redirected ? new URL(res.url) : null;
  const requestHeaders = Object.fromEntries(new Headers(init.headers).entries());
  // Only a JSON answer is read (from a clone); an export or a page streams on untouched.
  const json = /^application\/(problem\+)?json/.test(res.headers.get('content-type') ?? '');
  const problems = validator.check({
    // A redirect that was followed: the answer is the final GET's.
    method: final ? 'GET' : (init.method ?? 'GET').toUpperCase(),
    path: final ? `${final.pathname}${final.search}` : `${url.pathname}${url.search}`,
    requestHeaders: final ? {} : requestHeaders,
    requestBody: final ? undefined : sent,
    status: res.status,
    responseHeaders: res.headers,
    responseText: json ? await res.clone().text() : null,
  });
  if (problems.length > 0) {
    throw new Error(`the exchange does not match the OpenAPI document:\n  ${problems.join('\n  ')}`);
  }
  return res;
}

function bodyOf(body: RequestInit['body']): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  throw new Error('checkedFetch checks a string, URLSearchParams or bytes body; not a stream or form data');
}
