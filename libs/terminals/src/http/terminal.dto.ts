import { IsOptional, IsString, Matches } from 'class-validator';
import { UUID } from '../../../platform/src/validation/uuid';
import { PlainText } from '../../../platform/src/validation/plain-text';

/**
 * Terminal bodies. The DTOs check shape and types (and refuse unknown fields); the value rules
 * (serial number format, lengths, blank) are the domain's (domain/terminal-rules.ts), so every
 * writer gets the same answer.
 */

/** `POST /terminals`: all three required (the spec's sample). */
export class CreateTerminalDto {
  @IsString()
  @Matches(UUID, { message: 'must be a UUID' })
  merchant_id!: string;

  @IsString()
  @PlainText()
  serial_number!: string;

  @IsString()
  @PlainText()
  model!: string;
}

/** `POST /terminals/{id}/heartbeat` (the terminal itself): the body may be left out. */
export class TerminalHeartbeatDto {
  @IsOptional()
  @IsString()
  @PlainText()
  firmware_version?: string | null;
}
