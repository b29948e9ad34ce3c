import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OperatorRoute } from '../../../platform/src/auth/access';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { PartnerReader } from '../../../partners/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { RunMerchantCommand, type MerchantCommandInput } from '../application/merchant-commands';
import { MerchantReader } from '../application/merchant-reader';
import type { Merchant } from '../domain/merchant';
import type { GoLiveGate } from '../domain/merchant-errors';
import { goLiveGate } from '../domain/go-live-gate';
import { toMerchantResource } from '../domain/merchant-resource';
import type { MerchantOperatorAction } from '../domain/merchant-states';
import { MerchantTransitionDto } from './merchant.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { MerchantResourceSchema } from '../domain/merchant-resource';

/**
 * The operator's side of onboarding (CONTRACT §2): review, signature, underwriting,
 * provisioning, go-live, suspension and closing, each one action of the merchant state machine.
 */
@OperatorRoute()
@Controller('platform/merchants')
export class PlatformMerchantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly partners: PartnerReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':merchantId')
  @Describe({ summary: 'Read any merchant', response: MerchantResourceSchema })
  async read(@Param('merchantId', UuidParam) merchantId: string) {
    return toMerchantResource(await this.merchants.get(merchantId));
  }

  /** 200 with the merchant; a move the state machine forbids is 409 `invalid_state_transition`. */
  @Post(':merchantId/transitions')
  @HttpCode(200)
  @Describe({
    summary: 'Move a merchant through onboarding (start_review, approve_precheck, … go_live, suspend, close)',
    description: 'A move the state machine forbids is 409 `invalid_state_transition`.',
    response: MerchantResourceSchema,
    errors: [409, 422],
  })
  async transition(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: MerchantTransitionDto,
    @Req() request: FastifyRequest,
  ) {
    const merchant = await this.merchants.get(merchantId);
    const command = await this.commandFor(body, merchant);
    const result = await this.commands.execute(
      new RunMerchantCommand(command, metadataOf(request, merchant.partnerId)),
    );
    return toMerchantResource(result.state);
  }

  private async commandFor(body: MerchantTransitionDto, merchant: Merchant): Promise<MerchantCommandInput> {
    const merchantId = merchant.id;
    const action: MerchantOperatorAction = body.action;
    switch (action) {
      case 'start_review':
        return { type: 'StartMerchantReview', merchantId };
      case 'approve_precheck':
        return { type: 'ApproveMerchantPrecheck', merchantId };
      case 'complete_signature':
        return { type: 'CompleteMerchantSignature', merchantId };
      case 'decline_signature':
        return { type: 'DeclineMerchantSignature', merchantId, reason: body.reason ?? null };
      case 'pass_underwriting':
        return { type: 'PassMerchantUnderwriting', merchantId };
      case 'fail_underwriting':
        return {
          type: 'FailMerchantUnderwriting',
          merchantId,
          rejectionReasonCode: body.rejection_reason_code ?? null,
          rejectionReason: body.reason ?? null,
        };
      case 'request_clarification':
        return {
          type: 'RequestMerchantClarification',
          merchantId,
          clarificationMessage: body.clarification_message ?? null,
        };
      case 'start_provisioning':
        return { type: 'StartMerchantProvisioning', merchantId };
      case 'fail_provisioning':
        return { type: 'FailMerchantProvisioning', merchantId, step: null, error: body.reason ?? null };
      case 'retry_provisioning':
        return { type: 'RetryMerchantProvisioning', merchantId };
      case 'complete_provisioning':
        // The sandbox gateway registers the merchant with one processor and assigns the ids.
        return {
          type: 'CompleteMerchantProvisioning',
          merchantId,
          processorMids: [{ processor: 'SANDBOX_PROCESSOR', mid: `MID${digits(12)}` }],
          gatewayMerchantId: `gwm_${randomBytes(9).toString('base64url')}`,
        };
      case 'go_live':
        return { type: 'TakeMerchantLive', merchantId, gate: await this.goLiveGate(merchant) };
      case 'suspend':
        return { type: 'SuspendMerchant', merchantId, reason: body.reason ?? null };
      case 'reactivate':
        return { type: 'ReactivateMerchant', merchantId };
      case 'close':
        return { type: 'CloseMerchant', merchantId, reason: body.reason ?? null };
    }
  }

  /** The go-live gate (`domain/go-live-gate.ts`): production also requires the partner CERTIFIED. */
  private async goLiveGate(merchant: Merchant): Promise<GoLiveGate> {
    const partner = await this.partners.get(merchant.partnerId);
    return goLiveGate(merchant, {
      environment: this.config.appEnv,
      partnerCertificationStatus: partner.certificationStatus,
    });
  }
}

function digits(n: number): string {
  return Array.from(randomBytes(n), (b) => String(b % 10)).join('');
}
