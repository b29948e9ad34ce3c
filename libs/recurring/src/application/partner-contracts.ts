import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import {
  MerchantReader,
  normalizeCustomFieldValues,
  validateCustomFieldValues,
  type Merchant,
} from '../../../merchants/src';
import { assertFeaturesEnabled, type FeatureNeed } from '../../../partners/src';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { Clock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor } from '../../../platform/src/http/request-metadata';
import { ProjectionRunner } from '../../../projections/src';
import {
  assertMerchantTransactable,
  CustomFieldsInvalid,
  toLevel2Data,
  toLevel3Data,
  type Level2DataInput,
  type Level3DataInput,
} from '../../../transactions/src';
import { assertChargeable, StoredCredentialNotFound, StoredCredentialReader } from '../../../vault/src';
import {
  ContractPaymentMethodMismatch,
  contractPaymentMethod,
  contractUseType,
  dateOf,
  railOf,
  type Contract,
} from '../domain';
import { parseContractRequest, parseContractUpdate, type ContractRequest } from '../wire/contract-request';
import { CONTRACT_LIST, RunContractCommand, type ContractCommandInput } from './contract-commands';
import { ContractReader } from './contract-reader';

/**
 * The feature flags a contract body needs besides the route's `recurring_billing`
 * (docs/feature-flags.md), checked right after its form: ACH, Level 2/3 data, custom fields.
 * `installments` depends on the token's scope, so it is checked once the token is read.
 */
function featuresNeeded(request: ContractRequest): FeatureNeed[] {
  const needs: FeatureNeed[] = [];
  if (request.paymentMethodType === 'ACH') {
    needs.push({ flag: 'ach_payments', field: 'payment_method_type', what: 'an ACH contract' });
  }
  if (request.level2Data !== null) {
    needs.push({ flag: 'level2_level3_data', field: 'level2_data', what: 'level2_data on a contract' });
  }
  if (request.level3Data !== null) {
    needs.push({ flag: 'level2_level3_data', field: 'level3_data', what: 'level3_data on a contract' });
  }
  if (request.customFields !== null && request.customFields.length > 0) {
    needs.push({ flag: 'custom_fields', field: 'custom_fields', what: 'custom_fields on a contract' });
  }
  return needs;
}

/**
 * A partner's contract writes (`POST /contracts`, PATCH, pause, resume, cancel): the checks
 * around the contract aggregate, then one command, then the wait for `contract-list`, so a list
 * read right after shows the write.
 *
 * Order of a create, each failing before anything is written: body (400, every field at once) →
 * flags of its variants (403) → merchant is the partner's (404 `merchant_not_found`) → merchant
 * may transact (422 `merchant_not_transactable`) → token is this merchant's (404
 * `stored_credential_not_found`; another partner's token reads the same) → its rail is
 * `payment_method_type` (422 `payment_method_mismatch`) → it may be charged with the contract's
 * use type (422 `stored_credential_not_chargeable` when revoked or expired,
 * `stored_credential_scope_violation` outside its scope) → `installments` for an INSTALLMENT plan
 * (403) → custom fields against the merchant's configuration (422 `custom_fields_invalid`).
 */
@Injectable()
export class PartnerContracts {
  constructor(
    private readonly commands: CommandBus,
    private readonly contracts: ContractReader,
    private readonly merchants: MerchantReader,
    private readonly credentials: StoredCredentialReader,
    private readonly projections: ProjectionRunner,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(metadata: EventMetadata, caller: PartnerPrincipal, body: unknown): Promise<Contract> {
    const now = this.clock.now();
    const request = parseContractRequest(body, dateOf(now));
    assertFeaturesEnabled(caller.enabledFeatures, featuresNeeded(request));
    const merchant = await this.merchants.getForPartner(request.merchantId, caller.partnerId);
    assertMerchantTransactable(merchant, this.config.appEnv);
    const credential = await this.credentials.findByVaultToken(caller.partnerId, request.vaultToken);
    // Another merchant's token reads like an unknown one (tenancy).
    if (!credential || credential.merchantId !== merchant.id) {
      throw new StoredCredentialNotFound(request.vaultToken);
    }
    if (railOf(credential) !== request.paymentMethodType) {
      throw new ContractPaymentMethodMismatch(request.paymentMethodType, railOf(credential));
    }
    const useType = contractUseType(credential.allowedUseTypes, request.numberOfPayments);
    assertChargeable(credential, useType, now);
    if (useType === 'INSTALLMENT') {
      assertFeaturesEnabled(caller.enabledFeatures, [
        { flag: 'installments', field: 'payment_method_token', what: 'an installment plan' },
      ]);
    }
    const customFields = this.customFieldsFor(merchant, request.customFields);

    return this.run(
      {
        type: 'CreateContract',
        contractId: idFor(metadata.causation_id, 'contract', randomUUID),
        partnerId: caller.partnerId,
        merchantId: merchant.id,
        customerId: credential.customerId,
        origin: 'api',
        hppSessionId: null,
        paymentMethodType: request.paymentMethodType,
        paymentMethod: contractPaymentMethod(credential),
        useType,
        amountMinor: request.amountMinor,
        currency: request.currency,
        frequency: request.frequency,
        interval: request.interval,
        startDate: request.startDate,
        endDate: request.endDate,
        numberOfPayments: request.numberOfPayments,
        maxRetries: request.maxRetries,
        customFields,
        level2Data: request.level2Data && {
          ...toLevel2Data(request.level2Data as unknown as Level2DataInput),
        },
        level3Data: request.level3Data && {
          ...toLevel3Data(request.level3Data as unknown as Level3DataInput, request.currency),
        },
        activationDeadline: null,
      },
      metadata,
    );
  }

  async update(metadata: EventMetadata, caller: PartnerPrincipal, contractId: string, body: unknown) {
    await this.contracts.getForPartner(contractId, caller.partnerId);
    const update = parseContractUpdate(body, dateOf(this.clock.now()));
    return this.run({ type: 'UpdateContract', contractId, ...update }, metadata);
  }

  async act(
    metadata: EventMetadata,
    caller: PartnerPrincipal,
    contractId: string,
    action: 'PauseContract' | 'ResumeContract' | 'CancelContract',
    reason: string | null,
  ): Promise<Contract> {
    await this.contracts.getForPartner(contractId, caller.partnerId);
    return this.run({ type: action, contractId, reason }, metadata);
  }

  private async run(command: ContractCommandInput, metadata: EventMetadata): Promise<Contract> {
    const result = await this.commands.execute(new RunContractCommand(command, metadata));
    if (result.position !== null) await this.projections.waitFor(result.position, [CONTRACT_LIST]);
    return result.state;
  }

  /**
   * Contract custom fields come from the partner's server, so they are checked as API values and
   * stored normalised, exactly as every charge of the contract will record them.
   */
  private customFieldsFor(merchant: Merchant, values: unknown): { name: string; value: string }[] {
    if (values === null) return [];
    const errors = validateCustomFieldValues(merchant.customFields, values, 'api');
    if (errors.length > 0) throw new CustomFieldsInvalid(errors);
    return normalizeCustomFieldValues(merchant.customFields, values).map(({ name, value }) => ({
      name,
      value,
    }));
  }
}
