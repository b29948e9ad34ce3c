import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { US_STATES } from '../../../configuration/src';
import { PlainText } from '../../../platform/src/validation/plain-text';
import { RequiredText, EmailAddress } from '../../../platform/src/validation/text-fields';
import { MERCHANT_CHANNELS as CHANNELS, MERCHANT_OPERATOR_ACTIONS } from '../domain/merchant-states';

const NOT_BLANK = /\S/;
const US_STATE_CODES = US_STATES.map((s) => s.code);
export const MCC_PATTERN = /^[0-9]{4}$/;

/** Present means set; `null` is refused for these (a merchant always has them). */
const present = (_: object, value: unknown) => value !== undefined;

/** `POST /merchants` (CONTRACT §8: the four required fields, the rest optional). */
export class CreateMerchantDto {
  @RequiredText(200)
  business_name!: string;

  @EmailAddress()
  contact_email!: string;

  @RequiredText(200)
  contact_name!: string;

  @IsString()
  @Matches(MCC_PATTERN, { message: 'must be four digits (a code of GET /config/mcc-catalog)' })
  merchant_category_code!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  @PlainText()
  authorized_signer_name?: string;

  @IsOptional()
  @EmailAddress()
  authorized_signer_email?: string;

  @IsOptional()
  @IsIn(CHANNELS, { message: `must be one of ${CHANNELS.join(', ')}` })
  channel?: (typeof CHANNELS)[number];

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  location_count?: number;

  /** Extension: USPS code of the business location (surcharge rules depend on it). */
  @IsOptional()
  @IsIn(US_STATE_CODES, { message: 'must be a US state code from GET /config/us-states' })
  business_state?: string;
}

/** `PATCH /merchants/{id}`: only provided fields change; none may be set to null. */
export class UpdateMerchantDto {
  @ValidateIf(present)
  @RequiredText(200)
  business_name?: string;

  @ValidateIf(present)
  @EmailAddress()
  contact_email?: string;

  @ValidateIf(present)
  @RequiredText(200)
  contact_name?: string;

  @ValidateIf(present)
  @IsString()
  @Matches(MCC_PATTERN, { message: 'must be four digits (a code of GET /config/mcc-catalog)' })
  merchant_category_code?: string;

  @ValidateIf(present)
  @IsString()
  @Length(1, 200)
  @PlainText()
  authorized_signer_name?: string;

  @ValidateIf(present)
  @EmailAddress()
  authorized_signer_email?: string;

  @ValidateIf(present)
  @IsIn(CHANNELS, { message: `must be one of ${CHANNELS.join(', ')}` })
  channel?: (typeof CHANNELS)[number];

  @ValidateIf(present)
  @IsInt()
  @Min(1)
  @Max(100_000)
  location_count?: number;

  @ValidateIf(present)
  @IsIn(US_STATE_CODES, { message: 'must be a US state code from GET /config/us-states' })
  business_state?: string;
}

/** `POST /merchants/{id}/respond-clarification`. */
export class RespondClarificationDto {
  @IsString()
  @Length(1, 2000)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  @PlainText({ multiline: true })
  response!: string;
}

/** `POST /merchants/{id}/resubmit`: an optional note to the reviewer. */
export class ResubmitDto {
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  @PlainText({ multiline: true })
  message?: string;
}

/** `POST /platform/merchants/{id}/transitions` (CONTRACT §2). */
export class MerchantTransitionDto {
  @IsIn(MERCHANT_OPERATOR_ACTIONS, { message: `must be one of ${MERCHANT_OPERATOR_ACTIONS.join(', ')}` })
  action!: (typeof MERCHANT_OPERATOR_ACTIONS)[number];

  @IsOptional()
  @IsString()
  @Length(1, 2000)
  @PlainText({ multiline: true })
  reason?: string;

  @IsOptional()
  @IsString()
  @Matches(/^REJ_[0-9]{3}$/, { message: 'must look like REJ_001' })
  rejection_reason_code?: string;

  @IsOptional()
  @IsString()
  @Length(1, 2000)
  @PlainText({ multiline: true })
  clarification_message?: string;
}
