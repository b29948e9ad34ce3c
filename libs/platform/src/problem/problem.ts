/** An RFC 9457 problem body as this API renders it (CONTRACT §7). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  retryable?: boolean;
  errors?: { field: string; message: string }[];
  /** `GET /health` while something it depends on is down: each dependency and its state. */
  checks?: Record<string, string>;
  request_id?: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Where the page explaining a code is served (`GET /api/v1/problems/{code}`), relative to the API. */
export const PROBLEMS_PATH = '/api/v1/problems';

/** A code's page path: `partner_not_found` → `/api/v1/problems/partner-not-found`. */
export function problemTypePath(code: string): string {
  return `${PROBLEMS_PATH}/${code.replace(/_/g, '-')}`;
}

/**
 * Where this deployment is reached (`PUBLIC_BASE_URL`, its real port when it listens on port 0),
 * per HTTP server: a problem's `type` becomes an absolute URL under it. Without one (code outside
 * a running server) the `type` stays the path, a relative reference to the same page.
 */
const PUBLIC_BASES = new WeakMap<object, string>();

export function setPublicBaseUrl(server: object, baseUrl: string): void {
  PUBLIC_BASES.set(server, baseUrl.replace(/\/+$/, ''));
}

/** The problem's `type` as served by `server`: absolute when the server's public base is known. */
export function problemTypeFor(server: object | undefined, type: string): string {
  const base = server && PUBLIC_BASES.get(server);
  return base && type.startsWith('/') ? `${base}${type}` : type;
}

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Partial<Pick<Problem, 'retryable' | 'errors' | 'checks'>> = {},
): Problem {
  return {
    type: problemTypePath(code),
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}
