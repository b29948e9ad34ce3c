import { IsIn, IsString } from 'class-validator';
import { RESOLUTION_MAX_LENGTH } from '../domain/reconciliation-exception-decide';
import { OPERATOR_RESOLUTIONS, type OperatorResolution } from '../domain/reconciliation-exception-rules';
import { RequiredText } from '../../../platform/src/validation/text-fields';

/** `POST /platform/reconciliation-exceptions/{id}/resolve` (CONTRACT §2). */
export class ResolveExceptionDto {
  @IsString()
  @IsIn(OPERATOR_RESOLUTIONS, { message: `must be one of ${OPERATOR_RESOLUTIONS.join(', ')}` })
  state!: OperatorResolution;

  /** What was done or decided, for the audit trail: 1 to 1,000 characters of single-line plain text. */
  @RequiredText(RESOLUTION_MAX_LENGTH)
  resolution!: string;
}
