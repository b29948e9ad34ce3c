/* eslint-disable @typescript-eslint/no-explicit-any -- problem bodies are JSON the tests inspect freely */
import { problem } from '../../libs/platform/src/problem/problem';
import type { ApiResponse } from './api';

/**
 * Asserts a full problem answer (CONTRACT §7): the HTTP status, the `application/problem+json`
 * media type and the body's `type`, `title`, `status`, `detail`, `code` and `request_id`, plus
 * whatever `extra` fields (e.g. `errors`) the caller names. Status, media type and body are
 * compared as one object so a failure shows all three.
 */
export function expectProblem(
  res: ApiResponse,
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
): void {
  expect({ status: res.status, contentType: res.headers.get('content-type'), body: res.body }).toMatchObject({
    status,
    contentType: expect.stringMatching(/^application\/problem\+json/),
    body: {
      // Absolute, under the service's own base URL (the page GET /api/v1/problems/{code}).
      type: expect.stringMatching(new RegExp(`^https?://[^/]+${problem(status, code, '').type}$`)),
      title: problem(status, code, '').title,
      status,
      detail: expect.stringMatching(/\S/),
      code,
      ...(res.headers.get('x-idempotent-replay') === 'true'
        ? {}
        : { request_id: res.headers.get('x-request-id') }),
      ...extra,
    },
  });
}

/** A 400 `validation_error` whose `errors` name exactly these fields (in any order). */
export function expectValidationError(res: ApiResponse, fields: string[]): void {
  expectProblem(res, 400, 'validation_error', { errors: expect.any(Array) });
  const named = (res.body.errors as { field: string; message: string }[]).map((e) => e.field);
  expect([...new Set(named)].sort()).toEqual([...new Set(fields)].sort());
  for (const error of res.body.errors as { field: string; message: string }[]) {
    expect(error.message).toEqual(expect.any(String));
    expect(error.message.length).toBeGreaterThan(0);
  }
}

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ExpectedProblem {
  status: number;
  code: string;
  title: string;
  /** When given, `errors` must hold exactly these entries (in any order). */
  errors?: { field: string; message?: string | RegExp }[];
}

/**
 * The whole problem body (CONTRACT §7): media type, `type`, `title`, `status`, `detail`, `code`,
 * `request_id` equal to the `x-request-id` header, and `errors` on validation errors.
 */
export function expectProblemDetails(res: ApiResponse, expected: ExpectedProblem): any {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status: expected.status,
    body: { status: expected.status, code: expected.code },
  });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json(;|$)/);
  const body = res.body;
  // An absolute URL of this deployment's page about the code (served by GET /api/v1/problems/{code}).
  expect(body.type).toMatch(
    new RegExp(`^https?://[^/]+/api/v1/problems/${expected.code.replace(/_/g, '-')}$`),
  );
  expect(body.title).toBe(expected.title);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  // A replay answers the original body byte for byte, so it names the request that first got it.
  if (res.headers.get('x-idempotent-replay') !== 'true') {
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
  }
  if (expected.errors) {
    expect(Array.isArray(body.errors)).toBe(true);
    expect(body.errors).toHaveLength(expected.errors.length);
    for (const entry of body.errors) {
      expect(Object.keys(entry).sort()).toEqual(['field', 'message']);
      expect(typeof entry.message).toBe('string');
      expect(entry.message.length).toBeGreaterThan(0);
    }
    expect([...body.errors].map((e: any) => e.field).sort()).toEqual(
      expected.errors.map((e) => e.field).sort(),
    );
    for (const want of expected.errors) {
      if (want.message === undefined) continue;
      const got = body.errors.find((e: any) => e.field === want.field);
      if (want.message instanceof RegExp) expect(got.message).toMatch(want.message);
      else expect(got.message).toBe(want.message);
    }
  } else if (expected.code !== 'validation_error') {
    expect(body.errors).toBeUndefined();
  }
  return body;
}

/** No `Access-Control-*` header of any kind: the API is not for browsers. */
export function expectNoCors(headers: Headers): void {
  const cors = [...headers.keys()].filter((name) => name.toLowerCase().startsWith('access-control-'));
  expect(cors).toEqual([]);
}
