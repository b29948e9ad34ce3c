import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, metadataOf } from '../../../platform/src/http/request-metadata';
import { Charges } from '../application/charge';
import { FollowUps } from '../application/follow-up';
import { GatewayOutcomes } from '../application/gateway-outcome';
import type { RequestedPayment } from '../application/payment-context';
import { TransactionSteps } from '../application/transaction-steps';
import { TransactionReader } from '../application/transaction-reader';
import { toTransactionResource } from '../domain/transaction-resource';
import { parseTransactionRequest } from '../domain/transaction-request';
import { THREE_DS_FAILURE_REASONS, type ThreeDsFailureReason } from '../domain/transaction-states';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { RecordWithFirstAppend } from '../../../platform/src/idempotency/idempotency.interceptor';
import { RequestRecord } from '../../../platform/src/idempotency/request-record';
import type { Transaction } from '../domain/transaction';
import { schemaFieldErrors } from '../../../platform/src/openapi/schema-gate';
import { Describe } from '../../../platform/src/openapi/describe';
import { TransactionResourceSchema } from '../domain/transaction-resource';
import { ThreeDsCompletionSchema, TransactionRequestSchema } from '../domain/transaction-request';

const THREE_DS_OUTCOMES = THREE_DS_FAILURE_REASONS.filter((r) => r !== 'callback_timeout');

function parseThreeDsOutcome(body: unknown): 'authenticated' | ThreeDsFailureReason {
  const allowed = ['authenticated', ...THREE_DS_OUTCOMES];
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  const unknown = Object.keys(fields).filter((k) => k !== 'outcome');
  const outcome = (fields as { outcome?: unknown }).outcome;
  const errors = unknown.map((field) => ({ field, message: 'is not a field of a 3DS completion' }));
  if (typeof outcome !== 'string' || !allowed.includes(outcome)) {
    errors.push({ field: 'outcome', message: `must be one of ${allowed.join(', ')}` });
  }
  if (errors.length > 0) throw validationProblem(errors);
  const shape = schemaFieldErrors(ThreeDsCompletionSchema, body);
  if (shape.length > 0) throw validationProblem(shape);
  return outcome as 'authenticated' | ThreeDsFailureReason;
}

/**
 * `POST /transactions` (every action, one flat body discriminated by `type`) and
 * `GET /transactions/{id}` (CONTRACT §3). The list, summary and export are in
 * transaction-queries.controller.ts.
 */
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly charges: Charges,
    private readonly followUps: FollowUps,
    private readonly outcomes: GatewayOutcomes,
    private readonly steps: TransactionSteps,
    private readonly transactions: TransactionReader,
  ) {}

  /**
   * 200 whether approved or declined (CONTRACT §7); 502 `gateway_outcome_unknown` while the
   * gateway's answer is pending. A twin of a request still running is 409
   * `idempotency_key_in_progress`, as on every write (the idempotency interceptor).
   */
  @Post()
  @HttpCode(200)
  @PartnerRoute('transaction:write')
  @RecordWithFirstAppend()
  @Describe({
    summary: 'Create a transaction: a sale, an ACH debit, or a follow-up (void, refund, reversal…)',
    description:
      '200 whether approved or declined (a decline is `state: FAILED` with `decline_code`). 502 `gateway_outcome_unknown`: retry with the same Idempotency-Key.',
    body: TransactionRequestSchema,
    response: TransactionResourceSchema,
    errors: [404, 409, 422, 501, 502],
  })
  async create(
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const parsed = parseTransactionRequest(body);
    const context: RequestedPayment = {
      partnerId: caller.partnerId,
      enabledFeatures: caller.enabledFeatures,
      commandId: request.commandId ?? String(request.id),
      fresh: request.commandFresh === true,
      metadata: metadataOf(request, caller.partnerId),
      source: 'api',
      disclosureChannel: 'API',
      entryMode: 'KEYED',
    };
    if (parsed.kind === 'charge') {
      // The charge's last write (the gateway's answer) commits this answer with it; while the
      // answer is unknown (INITIATED, 502) there is nothing to store.
      RequestRecord.current()?.answerWith((state) => {
        const charged = state as Transaction;
        return charged.state === 'INITIATED' ? null : toTransactionResource(charged);
      });
    }
    const transaction =
      parsed.kind === 'charge'
        ? await this.charges.charge(context, parsed)
        : await this.followUps.followUp(context, parsed);
    return toTransactionResource(transaction);
  }

  /**
   * Resolves a THREE_DS_PENDING transaction (spec: reserved for card-authentication flows; no
   * create path issues a step-up today). Body `{outcome}`: `authenticated`, after which the held
   * charge goes to the gateway, or a failure reason, which ends it THREE_DS_FAILED. Any other
   * state is 409 `invalid_state_transition`; after the 15 minutes the answer is the time-out.
   * Needs `three_d_secure` (docs/feature-flags.md).
   */
  @Post(':transactionId/three-ds/complete')
  @HttpCode(200)
  @PartnerRoute('transaction:write')
  @RequiresFeature('three_d_secure')
  @Describe({
    summary: 'Resolve a THREE_DS_PENDING transaction',
    body: ThreeDsCompletionSchema,
    response: TransactionResourceSchema,
    errors: [409, 422, 502],
  })
  async completeThreeDs(
    @Param('transactionId', UuidParam) transactionId: string,
    @Body() body: unknown,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const outcome = parseThreeDsOutcome(body);
    const transaction = await this.transactions.getForPartner(transactionId, caller.partnerId);
    const context = {
      commandId: request.commandId ?? String(request.id),
      metadata: metadataOf(request, caller.partnerId),
    };
    const after = await this.steps.step(context, 'three-ds', {
      type: 'CompleteThreeDs',
      transactionId: transaction.id,
      outcome,
    });
    return toTransactionResource(
      after.state === 'INITIATED' ? await this.outcomes.resolve(context, after) : after,
    );
  }

  @Get(':transactionId')
  @PartnerRoute('transaction:read')
  @Describe({ summary: 'Read a transaction', response: TransactionResourceSchema })
  async read(
    @Param('transactionId', UuidParam) transactionId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    return toTransactionResource(await this.transactions.getForPartner(transactionId, caller.partnerId));
  }
}
