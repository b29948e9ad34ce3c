import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { PlainText } from '../../../platform/src/validation/plain-text';

/**
 * Customer bodies. The DTOs check shape and types (and refuse unknown fields); the value rules
 * (email format, display_name length, E.164, a complete address, address with clear_address) are
 * the domain's (domain/customer-rules.ts), so every writer gets the same answer. In a PATCH,
 * omitted and `null` both mean "unchanged"; `""` clears `display_name` and `phone`.
 */
export class CustomerAddressDto {
  @IsString()
  @PlainText()
  line1!: string;

  @IsOptional()
  @IsString()
  @PlainText()
  line2?: string | null;

  @IsString()
  @PlainText()
  city!: string;

  @IsString()
  @PlainText()
  state!: string;

  @IsString()
  @PlainText()
  postal_code!: string;

  @IsString()
  @PlainText()
  country!: string;
}

/** `POST /merchants/{merchantId}/customers`: `email` required, the rest optional. */
export class CreateCustomerDto {
  @IsString()
  @PlainText()
  email!: string;

  @IsOptional()
  @IsString()
  @PlainText()
  display_name?: string | null;

  @IsOptional()
  @IsString()
  @PlainText()
  phone?: string | null;

  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => CustomerAddressDto)
  address?: CustomerAddressDto | null;
}

/** `PATCH /merchants/{merchantId}/customers/{customerId}`: every field optional and nullable. */
export class UpdateCustomerDto {
  @IsOptional()
  @IsString()
  @PlainText()
  email?: string | null;

  @IsOptional()
  @IsString()
  @PlainText()
  display_name?: string | null;

  @IsOptional()
  @IsString()
  @PlainText()
  phone?: string | null;

  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => CustomerAddressDto)
  address?: CustomerAddressDto | null;

  @IsOptional()
  @IsBoolean()
  clear_address?: boolean | null;
}
