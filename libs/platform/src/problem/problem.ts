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

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Partial<Pick<Problem, 'retryable' | 'errors' | 'checks'>> = {},
): Problem {
  return {
    type: `https://docs.payments.example/problems/${code.replace(/_/g, '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}
