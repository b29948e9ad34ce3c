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
      type: expect.stringMatching(/^https?:\/\//),
      title: expect.any(String),
      status,
      detail: expect.any(String),
      code,
      request_id: expect.any(String),
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
