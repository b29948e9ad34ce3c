/**
 * Whether a pattern someone outside the platform wrote runs in linear time on a backtracking
 * engine, proven by an analyser (recheck: automata theory where it applies, guided fuzzing with
 * recall validation elsewhere) rather than guessed from the pattern's look. The platform itself
 * matches with a linear-time engine (linear-regex.ts); this guard is for everything else that
 * runs the same pattern with a backtracking engine: the partner's own forms and the gateway the
 * configuration is provisioned to. Heuristics such as "no nested quantifier" miss whole families
 * (`\d*\d*\d*\d*x`, `(a|a)*$`, `(.*a){12}`), so only a `safe` verdict is accepted.
 *
 * The analysis runs outside the event loop (recheck's native binary in a child process, or a
 * worker thread), bounded by {@link ANALYSIS_TIMEOUT_MS} per pattern; a pattern it cannot decide
 * in that time is `unknown`, and unknown is refused like vulnerable. The analyser is loaded on
 * first use, so code that only needs {@link verdictProblem} (the pure domain) never loads it.
 */
export type RegexVerdict = 'safe' | 'vulnerable' | 'unknown';

/** Per pattern: ordinary patterns settle in milliseconds, the hostile families in under 2 s. */
export const ANALYSIS_TIMEOUT_MS = 3_000;

/**
 * The analyser's verdict on `source` as a JavaScript pattern without flags. Never throws.
 * `timeoutMs` is for tests that prove the analyser's verdict itself on a loaded machine.
 */
export async function analyseRegex(source: string, timeoutMs = ANALYSIS_TIMEOUT_MS): Promise<RegexVerdict> {
  try {
    const { check } = require('recheck') as typeof import('recheck');
    const diagnostics = await check(source, '', { timeout: timeoutMs });
    return diagnostics.status;
  } catch {
    // The analyser could not run (or the pattern is not one it reads): nothing is proven.
    return 'unknown';
  }
}

/** Verdicts for several patterns at once, keyed by the pattern (duplicates analysed once). */
export async function analyseRegexes(sources: readonly string[]): Promise<Record<string, RegexVerdict>> {
  const distinct = [...new Set(sources)];
  const verdicts = await Promise.all(distinct.map((source) => analyseRegex(source)));
  return Object.fromEntries(distinct.map((source, index) => [source, verdicts[index]]));
}

/** Why a verdict does not let the pattern be used, or null when it is `safe`. */
export function verdictProblem(verdict: RegexVerdict | undefined): string | null {
  switch (verdict) {
    case 'safe':
      return null;
    case 'vulnerable':
      return 'can take super-linear time to match (catastrophic backtracking); rewrite it without overlapping repetitions such as (a+)+, (a|a)* or \\d*\\d*';
    default:
      return 'could not be proven to match in linear time; simplify it';
  }
}
