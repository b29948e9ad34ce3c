import type { ApiResponse } from './api';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a write again with the SAME Idempotency-Key while its answer says to retry (503 with the
 * database away, 409 while a twin runs), as the answer's `Retry-After` says, until it has a
 * definite answer (or `timeoutMs` passes: the last answer is returned).
 */
export async function retryUntilDefinite(
  send: () => Promise<ApiResponse>,
  timeoutMs = 30_000,
): Promise<ApiResponse> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let res: ApiResponse;
    try {
      res = await send();
    } catch (error) {
      // No answer at all (the process is gone): the client tries again, as after a 503.
      if (performance.now() > deadline) throw error;
      await sleep(200);
      continue;
    }
    if (![409, 503].includes(res.status) || !res.body?.retryable || performance.now() > deadline) return res;
    await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
  }
}
