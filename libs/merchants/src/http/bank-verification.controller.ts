import { runMerchantCommand } from './run-merchant-command';
import { CommandBus } from '@nestjs/cqrs';
import { randomBytes, randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { Clock } from '../../../platform/src/clock/clock';
import { CurrentPartner, idFor } from '../../../platform/src/http/request-metadata';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { PlainText } from '../../../platform/src/validation/plain-text';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { BankAccountVault } from '../application/bank-account-vault';
import type { MerchantCommandInput } from '../application/merchant-commands';
import { MerchantReader } from '../application/merchant-reader';
import { isAbaRoutingNumber } from '../../../platform/src/banking/aba';
import { BankAccountMissing, BANK_ACCOUNT_TYPES, toBankVerification } from '../domain/bank/bank-verification';
import { sandboxBankVerification } from '../domain/bank/sandbox-bank-provider';
import type { Merchant } from '../domain/merchant';
import { Describe } from '../../../platform/src/openapi/describe';
import { BankVerificationSchema } from '../domain/bank/bank-verification';

class BankAccountDto {
  @IsString()
  @Matches(/^[0-9]{9}$/, { message: 'must be nine digits' })
  routing_number!: string;

  @IsString()
  @Matches(/^[0-9]{4,17}$/, { message: 'must be 4 to 17 digits' })
  account_number!: string;

  @IsIn(BANK_ACCOUNT_TYPES, { message: `must be one of ${BANK_ACCOUNT_TYPES.join(', ')}` })
  account_type!: (typeof BANK_ACCOUNT_TYPES)[number];

  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'must not be blank' })
  @PlainText()
  account_holder_name!: string;
}

/**
 * The merchant's settlement bank account and its verification (spec: bank-verification and its
 * check; `PUT /merchants/{id}/bank-account` is ours: the spec shows no way to give the account).
 * Full numbers go to the vault; reads show the last four digits only.
 */
@Controller('merchants/:merchantId')
export class BankVerificationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly vault: BankAccountVault,
    private readonly clock: Clock,
  ) {}

  /** Sets (or replaces) the account; verification starts over (PENDING). */
  @Put('bank-account')
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Set the merchant’s settlement bank account (starts its verification)',
    response: BankVerificationSchema,
    errors: [409, 422],
  })
  async setAccount(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: BankAccountDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    if (!isAbaRoutingNumber(body.routing_number)) {
      throw validationProblem([{ field: 'routing_number', message: 'is not a valid ABA routing number' }]);
    }
    const accountRef = idFor(request.commandId, 'bank-account', randomUUID);
    await this.vault.put(accountRef, merchantId, caller.partnerId, {
      routingNumber: body.routing_number,
      accountNumber: body.account_number,
    });
    const merchant = await this.run(request, caller, {
      type: 'SetSettlementBankAccount',
      merchantId,
      accountRef,
      routingLast4: body.routing_number.slice(-4),
      accountLast4: body.account_number.slice(-4),
      accountType: body.account_type,
      accountHolderName: body.account_holder_name,
      providerReference: `sbv_${randomBytes(9).toString('base64url')}`,
    });
    return toBankVerification(merchant.id, merchant.bank);
  }

  @Get('bank-verification')
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'The settlement bank account’s verification status',
    response: BankVerificationSchema,
  })
  async status(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toBankVerification(merchant.id, merchant.bank ?? null);
  }

  /** Polls the provider and refreshes the status (200 with it). */
  @Post('bank-verification/check')
  @HttpCode(200)
  @PartnerRoute('merchant:write')
  @Describe({
    summary: 'Ask the verification provider again and refresh the status',
    response: BankVerificationSchema,
    errors: [409, 422],
  })
  async check(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const current = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const bank = current.bank ?? null;
    if (!bank) throw new BankAccountMissing(merchantId);
    const numbers = await this.vault.get(bank.accountRef, merchantId);
    if (!numbers) throw new Error(`bank account record ${bank.accountRef} is missing from the vault`);
    const outcome = sandboxBankVerification(
      numbers.accountNumber,
      new Date(bank.submittedAt),
      this.clock.now(),
    );
    const merchant = await this.run(request, caller, {
      type: 'RecordBankVerificationCheck',
      merchantId,
      accountRef: bank.accountRef,
      outcome,
    });
    return toBankVerification(merchant.id, merchant.bank);
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    command: MerchantCommandInput,
  ): Promise<Merchant> {
    return runMerchantCommand(this.commands, request, caller.partnerId, command);
  }
}
