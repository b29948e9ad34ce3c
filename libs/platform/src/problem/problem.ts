/** An RFC 9457 problem body as this API renders it (CONTRACT §7). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  retryable?: boolean;
  errors?: { field: string; message: string }[];
  request_id?: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Partial<Pick<Problem, 'retryable' | 'errors'>> = {},
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
