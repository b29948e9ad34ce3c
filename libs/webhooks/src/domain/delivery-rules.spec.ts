import {
  ATTEMPT_ERRORS,
  classifyAttempt,
  nextStep,
  retryAfterSeconds,
  type AttemptOutcome,
} from './delivery-rules';

const answer = (statusCode: number, retryAfter: string | null = null): AttemptOutcome => ({
  kind: 'answer',
  statusCode,
  retryAfter,
});
const SCHEDULE = [0, 30, 300, 1800];
const AT = new Date('2026-11-01T10:00:00.000Z');
const after = (seconds: number) => new Date(AT.getTime() + seconds * 1000);

/** Written from the spec's rules 1, 4 and 5, not read from the code. */
const RULE_5 = [400, 401, 404, 405, 410, 422];

describe('classifying one attempt (spec rules 1, 4, 5)', () => {
  it.each(Array.from({ length: 100 }, (_, i) => 200 + i))('%i succeeds', (status) =>
    expect(classifyAttempt(answer(status))).toBe('succeeded'),
  );

  it.each(RULE_5)('%i fails for good, never retried', (status) =>
    expect(classifyAttempt(answer(status))).toBe('failed'),
  );

  const otherClientErrors = Array.from({ length: 100 }, (_, i) => 400 + i).filter((s) => !RULE_5.includes(s));
  it.each(otherClientErrors)('%i is retried (every 4xx outside rule 5: 403, 408, 429 …)', (status) =>
    expect(classifyAttempt(answer(status))).toBe('retry'),
  );

  it.each(Array.from({ length: 100 }, (_, i) => 300 + i))(
    '%i is retried: redirects are not followed',
    (status) => expect(classifyAttempt(answer(status))).toBe('retry'),
  );

  it.each(Array.from({ length: 100 }, (_, i) => 500 + i))('%i is retried', (status) =>
    expect(classifyAttempt(answer(status))).toBe('retry'),
  );

  it.each([100, 101, 199, 600, 999, 0])('%i (outside 200–599) is retried', (status) =>
    expect(classifyAttempt(answer(status))).toBe('retry'),
  );

  it.each(ATTEMPT_ERRORS)('no answer (%s) is retried: timeouts, refused connections, DNS failures', (error) =>
    expect(classifyAttempt({ kind: 'no_answer', error })).toBe('retry'),
  );
});

describe('Retry-After (spec rule 6)', () => {
  it.each([
    ['120', 120],
    [' 45 ', 45],
    ['0', 0],
    ['86400', 86400],
    ['86401', 86400],
    ['999999999999', 86400],
  ])('delta-seconds %j counts as %i seconds (clamped to 24 hours)', (header, seconds) =>
    expect(retryAfterSeconds(header)).toBe(seconds),
  );

  it.each(['Wed, 21 Oct 2026 07:28:00 GMT', '-5', '1.5', '10s', '', 'soon'])('%j is ignored', (header) =>
    expect(retryAfterSeconds(header)).toBeNull(),
  );
});

describe('the schedule (spec rules 3, 6, 7)', () => {
  it('retries after 30 s, 5 min and 30 min, then EXHAUSTED: four attempts in all', () => {
    expect(nextStep(SCHEDULE, 1, answer(500), AT)).toEqual({ state: 'PENDING', nextAttemptAt: after(30) });
    expect(nextStep(SCHEDULE, 2, answer(500), AT)).toEqual({ state: 'PENDING', nextAttemptAt: after(300) });
    expect(nextStep(SCHEDULE, 3, { kind: 'no_answer', error: 'timeout' }, AT)).toEqual({
      state: 'PENDING',
      nextAttemptAt: after(1800),
    });
    expect(nextStep(SCHEDULE, 4, answer(503), AT)).toEqual({ state: 'EXHAUSTED', nextAttemptAt: null });
  });

  it('SUCCEEDED or FAILED at once, whichever attempt it is', () => {
    for (const attempt of [1, 2, 3, 4]) {
      expect(nextStep(SCHEDULE, attempt, answer(204), AT)).toEqual({
        state: 'SUCCEEDED',
        nextAttemptAt: null,
      });
      expect(nextStep(SCHEDULE, attempt, answer(410), AT)).toEqual({ state: 'FAILED', nextAttemptAt: null });
    }
  });

  it('a delta-seconds Retry-After replaces the step; the HTTP-date form leaves it; the count stays four', () => {
    expect(nextStep(SCHEDULE, 1, answer(429, '7'), AT).nextAttemptAt).toEqual(after(7));
    expect(nextStep(SCHEDULE, 1, answer(503, 'Wed, 21 Oct 2026 07:28:00 GMT'), AT).nextAttemptAt).toEqual(
      after(30),
    );
    expect(nextStep(SCHEDULE, 2, answer(503, '999999'), AT).nextAttemptAt).toEqual(after(86400));
    expect(nextStep(SCHEDULE, 4, answer(429, '1'), AT)).toEqual({ state: 'EXHAUSTED', nextAttemptAt: null });
  });

  it('Retry-After on an answer that is not retried changes nothing', () =>
    expect(nextStep(SCHEDULE, 1, answer(400, '60'), AT)).toEqual({ state: 'FAILED', nextAttemptAt: null }));

  it('follows a configured schedule: its length is the number of attempts', () => {
    expect(nextStep([0, 2], 1, answer(500), AT)).toEqual({ state: 'PENDING', nextAttemptAt: after(2) });
    expect(nextStep([0, 2], 2, answer(500), AT).state).toBe('EXHAUSTED');
    expect(nextStep([0], 1, answer(500), AT).state).toBe('EXHAUSTED');
  });
});
