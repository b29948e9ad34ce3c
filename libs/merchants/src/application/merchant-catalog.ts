import { findMcc } from '../../../configuration/src';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import type { HipaaBaaStatus } from '../domain/merchant-states';

/** A merchant's MCC must be in the catalog; its BAA requirement decides `hipaa_baa_status`. */
export function hipaaBaaStatusFor(merchantCategoryCode: string): HipaaBaaStatus {
  const item = findMcc(merchantCategoryCode);
  if (!item) {
    throw validationProblem([
      { field: 'merchant_category_code', message: 'is not in the MCC catalog (GET /config/mcc-catalog)' },
    ]);
  }
  return item.baa_requirement === 'required' ? 'REQUIRED' : 'NOT_REQUIRED';
}
