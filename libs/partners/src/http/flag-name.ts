import { isWellFormedFlagName } from '../domain/configuration';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';

/** Path `flagName`: snake_case, 1 to 100 characters (spec), else 400. */
export function checkFlagName(flagName: string): void {
  if (!isWellFormedFlagName(flagName)) {
    throw validationProblem([
      { field: 'flagName', message: 'must be snake_case, 1 to 100 characters (e.g. ach_payments)' },
    ]);
  }
}
