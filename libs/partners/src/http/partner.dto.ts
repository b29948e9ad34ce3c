import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ALL_PARTNER_SCOPES } from '../../../platform/src/auth/scopes';
import { PlainText } from '../../../platform/src/validation/plain-text';
import { RequiredText, EmailAddress } from '../../../platform/src/validation/text-fields';
import {
  AVS_DECLINE_POLICIES,
  CERTIFICATION_STATUSES,
  PARTNER_TYPES,
  RATE_LIMIT_TIERS,
} from '../domain/partner-transitions';

export class BusinessAddressDto {
  @RequiredText(200)
  address_line1!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @PlainText()
  address_line2?: string;

  @RequiredText(100)
  city!: string;

  @IsString()
  @Length(1, 100)
  @PlainText()
  state!: string;

  @IsString()
  @Length(1, 20)
  @PlainText()
  zip!: string;

  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. US' })
  country!: string;
}

/** `POST /platform/partners` (CONTRACT §2). */
export class CreatePartnerDto {
  @RequiredText(200)
  name!: string;

  @EmailAddress()
  contact_email!: string;

  @RequiredText(200)
  contact_name!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  @PlainText()
  dba?: string;

  @IsOptional()
  @IsIn(PARTNER_TYPES, { message: `must be one of ${PARTNER_TYPES.join(', ')}` })
  partner_type?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => BusinessAddressDto)
  business_address?: BusinessAddressDto;
}

export class IssueApiKeyDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ALL_PARTNER_SCOPES.length)
  @ArrayUnique()
  @IsIn(ALL_PARTNER_SCOPES, { each: true, message: 'each scope must be one of docs/scopes.md' })
  scopes?: string[];
}

export class SetCertificationDto {
  @IsIn(CERTIFICATION_STATUSES, { message: `must be one of ${CERTIFICATION_STATUSES.join(', ')}` })
  status!: (typeof CERTIFICATION_STATUSES)[number];
}

export class OperatorFeatureFlagDto {
  @IsBoolean()
  enabled!: boolean;

  @IsOptional()
  @IsBoolean()
  globally_available?: boolean;
}

/**
 * `PATCH /platform/partners/{id}/config`: the operator-managed settings, and the partner's
 * `ip_allowlist` (so an operator can undo a list that shuts the partner out): an array sets it
 * (entries as for the partner's own PUT), `[]` lifts the restriction, null or omitted leaves it.
 */
export class OperatorConfigDto {
  @IsOptional()
  @IsIn(RATE_LIMIT_TIERS, { message: `must be one of ${RATE_LIMIT_TIERS.join(', ')}` })
  rate_limit_tier?: (typeof RATE_LIMIT_TIERS)[number];

  @IsOptional()
  @IsIn(AVS_DECLINE_POLICIES, { message: `must be one of ${AVS_DECLINE_POLICIES.join(', ')}` })
  avs_decline_policy?: (typeof AVS_DECLINE_POLICIES)[number];

  @IsOptional()
  @IsArray({ message: 'must be an array of CIDR entries' })
  @IsString({ each: true, message: 'each entry must be a string' })
  ip_allowlist?: string[] | null;
}

/** `PUT /config/feature-flags/me/{flagName}`: `enabled` is required, with no default. */
export class PartnerFeatureFlagDto {
  @IsBoolean()
  enabled!: boolean;
}
