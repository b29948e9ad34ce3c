import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';

/**
 * Customer bodies. The DTOs check shape and types (and refuse unknown fields); the value rules
 * (email format, display_name length, E.164, a complete address, address with clear_address) are
 * the domain's (domain/customer-rules.ts), so every writer gets the same answer. In a PATCH,
 * omitted and `null` both mean "unchanged"; `""` clears `display_name` and `phone`.
 */
export class CustomerAddressDto {
  @IsString()
  line1!: string;

  @IsOptional()
  @IsString()
  line2?: string | null;

  @IsString()
  city!: string;

  @IsString()
  state!: string;

  @IsString()
  postal_code!: string;

  @IsString()
  country!: string;
}

/** `POST /merchants/{merchantId}/customers`: `email` required, the rest optional. */
export class CreateCustomerDto {
  @IsString()
  email!: string;

  @IsOptional()
  @IsString()
  display_name?: string | null;

  @IsOptional()
  @IsString()
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
  email?: string | null;

  @IsOptional()
  @IsString()
  display_name?: string | null;

  @IsOptional()
  @IsString()
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
