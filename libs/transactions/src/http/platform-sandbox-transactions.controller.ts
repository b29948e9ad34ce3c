import { CommandBus } from '@nestjs/cqrs';
import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { OperatorRoute } from '../../../platform/src/auth/access';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { ProblemException } from '../../../platform/src/problem/problem.filter';
import { problem } from '../../../platform/src/problem/problem';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { PlainText } from '../../../platform/src/validation/plain-text';
import { ProjectionRunner } from '../../../projections/src';
import { RunTransactionCommand, type TransactionCommandInput } from '../application/transaction-commands';
import { TransactionReader } from '../application/transaction-reader';
import { returnCode } from '../domain/rules';
import { TransactionNotFound } from '../domain/transaction-errors';
import { toTransactionResource } from '../domain/transaction-resource';
import { Describe } from '../../../platform/src/openapi/describe';
import { TransactionResourceSchema } from '../domain/transaction-resource';

class AchReturnDto {
  @IsString()
  return_code!: string;
}

class DisputeDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  @PlainText()
  reason?: string;
}

class ChargebackDto {
  @IsIn(['lost', 'won'])
  outcome!: 'lost' | 'won';
}

/**
 * The bank's side of a transaction, simulated by the operator in sandbox (CONTRACT §2): an ACH
 * return with a NACHA R-code, a chargeback opened, and its outcome. Each answers 200 with the
 * transaction; a state that does not allow it is 409 `invalid_state_transition`. Production has
 * real banks: every route answers 404 there, as if it did not exist.
 */
@Controller('platform/sandbox/transactions/:transactionId')
export class PlatformSandboxTransactionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly transactions: TransactionReader,
    private readonly projections: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('ach-return')
  @HttpCode(200)
  @OperatorRoute()
  @Describe({
    summary: 'Return an ACH entry with a NACHA R-code (the receiving bank’s move)',
    response: TransactionResourceSchema,
    sandboxOnly: true,
    errors: [409],
  })
  async achReturn(
    @Param('transactionId', UuidParam) transactionId: string,
    @Body() body: AchReturnDto,
    @Req() request: FastifyRequest,
  ) {
    if (!returnCode(body.return_code)) {
      throw validationProblem([{ field: 'return_code', message: 'must be a NACHA return code such as R01' }]);
    }
    return this.apply(request, { type: 'ReturnAchEntry', transactionId, returnCode: body.return_code });
  }

  @Post('dispute')
  @HttpCode(200)
  @OperatorRoute()
  @Describe({
    summary: 'Open a chargeback against a settled transaction',
    response: TransactionResourceSchema,
    sandboxOnly: true,
    errors: [409],
  })
  async dispute(
    @Param('transactionId', UuidParam) transactionId: string,
    @Body() body: DisputeDto,
    @Req() request: FastifyRequest,
  ) {
    return this.apply(request, {
      type: 'OpenDispute',
      transactionId,
      disputeId: idFor(request.commandId, 'dispute', () => transactionId),
      reason: body.reason?.trim() || null,
    });
  }

  @Post('chargeback')
  @HttpCode(200)
  @OperatorRoute()
  @Describe({
    summary: 'Resolve the chargeback: `lost` (CHARGED_BACK) or `won` (back to SETTLED)',
    response: TransactionResourceSchema,
    sandboxOnly: true,
    errors: [409],
  })
  async chargeback(
    @Param('transactionId', UuidParam) transactionId: string,
    @Body() body: ChargebackDto,
    @Req() request: FastifyRequest,
  ) {
    return this.apply(request, { type: 'ResolveChargeback', transactionId, outcome: body.outcome });
  }

  private async apply(request: FastifyRequest, command: TransactionCommandInput) {
    if (this.config.appEnv !== 'sandbox') {
      throw new ProblemException(problem(404, 'not_found', 'bank-side simulations exist in sandbox only'));
    }
    const existing = await this.transactions.find(command.transactionId);
    if (!existing) throw new TransactionNotFound(command.transactionId);
    const result = await this.commands.execute(
      new RunTransactionCommand(command, metadataOf(request, existing.partnerId)),
    );
    if (result.position !== null) await this.projections.waitFor(result.position, ['transaction-list']);
    return toTransactionResource(result.state);
  }
}
