import { analyseRegex, analyseRegexes, verdictProblem } from './safe-regex';

/**
 * The analyser on the known ReDoS families (OWASP's list and the ones the outside test found).
 * Each of these takes a backtracking engine seconds to forever on a few hundred characters.
 */
const VULNERABLE = [
  '(a+)+$',
  '(a|a)*$',
  '(a|aa)+$',
  '\\d*\\d*\\d*\\d*x',
  '(.*a){12}',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '^(\\w+\\s?)*$',
  '([a-zA-Z]+)*$',
];

const SAFE = [
  '^INV-[0-9]+$',
  '[A-Z]{2}-\\d{4}',
  '(\\d{1,3}\\.){3}\\d{1,3}',
  '^[A-Za-z0-9._%+-]{1,64}$',
  'a|b',
];

describe('analyseRegex', () => {
  // The analyser's verdict, with time to reach it on a busy machine (the service's own bound is
  // 3 s, and a pattern it cannot decide in that time is refused as unknown: see below).
  it.each(VULNERABLE)(
    'finds %s super-linear',
    async (pattern) => {
      expect(await analyseRegex(pattern, 30_000)).toBe('vulnerable');
    },
    40_000,
  );

  it.each(VULNERABLE)('never calls %s safe within the service’s own bound', async (pattern) => {
    expect(verdictProblem(await analyseRegex(pattern))).not.toBeNull();
  });

  it.each(SAFE)('proves %s linear', async (pattern) => {
    expect(await analyseRegex(pattern)).toBe('safe');
  });

  it('never throws: a pattern it cannot read is unknown, not an error', async () => {
    expect(['unknown', 'safe', 'vulnerable']).toContain(await analyseRegex('('));
  });

  it('keys verdicts by pattern, each analysed once', async () =>
    expect(await analyseRegexes(['a|b', '(a+)+$', 'a|b'])).toEqual({
      'a|b': 'safe',
      '(a+)+$': 'vulnerable',
    }));

  it('lets the event loop run while it analyses', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await analyseRegexes(VULNERABLE);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('verdictProblem', () => {
  it('accepts only safe', () => {
    expect(verdictProblem('safe')).toBeNull();
    expect(verdictProblem('vulnerable')).toEqual(expect.any(String));
    expect(verdictProblem('unknown')).toEqual(expect.any(String));
    expect(verdictProblem(undefined)).toEqual(expect.any(String));
  });
});
