import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UuidParam } from '../../../partners/src/http/uuid-param.pipe';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { Payments, type PaymentContext } from '../application/payments';
import { TransactionStore } from '../application/transaction-store';
import { toTransactionResource } from '../domain/transaction-resource';
import { parseTransactionRequest } from '../domain/transaction-request';

/**
 * `POST /transactions` (every action, one flat body discriminated by `type`) and
 * `GET /transactions/{id}` (CONTRACT §3). The list, summary and export are in
 * transaction-queries.controller.ts.
 */
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly payments: Payments,
    private readonly transactions: TransactionStore,
  ) {}

  /** 200 whether approved or declined (CONTRACT §7); 502 `gateway_outcome_unknown` while pending. */
  @Post()
  @HttpCode(200)
  @PartnerRoute('transaction:write')
  async create(
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const parsed = parseTransactionRequest(body);
    const context: PaymentContext = {
      partnerId: caller.partnerId,
      commandId: request.commandId ?? String(request.id),
      metadata: metadataOf(request, caller.partnerId),
      source: 'api',
      disclosureChannel: 'API',
      entryMode: 'KEYED',
    };
    const transaction =
      parsed.kind === 'charge'
        ? await this.payments.charge(context, parsed)
        : await this.payments.followUp(context, parsed);
    return toTransactionResource(transaction);
  }

  @Get(':transactionId')
  @PartnerRoute('transaction:read')
  async read(
    @Param('transactionId', UuidParam) transactionId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    return toTransactionResource(await this.transactions.getForPartner(transactionId, caller.partnerId));
  }
}
