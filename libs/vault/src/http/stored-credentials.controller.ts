import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { Controller, Delete, Get, HttpCode, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { MerchantReader } from '../../../merchants/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner } from '../../../platform/src/http/request-metadata';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { listSnapshots } from '../../../platform/src/pagination/snapshot-list';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { RevokeStoredCredential } from '../application/stored-credential-commands';
import { StoredCredentialReader } from '../application/stored-credential-reader';
import type { StoredCredential } from '../domain/stored-credential';
import { toStoredCredentialResource } from '../domain/stored-credential-resource';
import {
  MAX_REVOCATION_REASON_LENGTH,
  STORED_CREDENTIAL_STATES,
  type StoredCredentialState,
} from '../domain/stored-credential-states';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { StoredCredentialResourceSchema } from '../domain/stored-credential-resource';

/** `state` (default ACTIVE) and `customer_id`; anything else, malformed, blank or repeated is 400. */
const LIST_QUERY = {
  state: queryParam.oneOf(STORED_CREDENTIAL_STATES),
  customer_id: queryParam.uuid(),
};

/**
 * The DELETE `reason`: free text, trimmed, at most 500 characters, single-line plain text; absent
 * or blank is none; given twice is 400. Nothing else may be sent.
 */
const REVOKE_QUERY = {
  reason: queryParam.text(MAX_REVOCATION_REASON_LENGTH, { blankIsAbsent: true }),
};

/**
 * A merchant's stored credentials (vault entries; spec "Stored credentials"). There is no create
 * route: entries are minted when a hosted save-card session completes. The merchant must be the
 * caller's own (404 `merchant_not_found` otherwise, before anything else); a credential that is
 * missing or another merchant's (of any partner) is 404 `stored_credential_not_found`. A revoked
 * credential still reads. Gated by the `stored_credentials` flag, as its catalog entry says.
 */
@RequiresFeature('stored_credentials')
@Controller('merchants/:merchantId/stored-credentials')
export class StoredCredentialsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly credentials: StoredCredentialReader,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
    private readonly cursors: CursorCodec,
  ) {}

  /**
   * Newest first. `state` ACTIVE (the default) or REVOKED: revoked credentials are listed only
   * when asked for; `customer_id` (a UUID) narrows to one customer's.
   */
  @Get()
  @PartnerRoute('stored_credential:read')
  @Describe({
    summary: 'The merchant’s stored credentials (ACTIVE unless `state=REVOKED`), newest first',
    response: pageOf(StoredCredentialResourceSchema),
    query: LIST_QUERY,
    paged: true,
  })
  async list(
    @Param('merchantId', UuidParam) merchantId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    const filters = listFilters(query);
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    // The cursor's scope: this partner's merchant and these filters. Digested, so a cursor stays
    // well under the spec's 256 characters whatever the filters.
    const scope = createHash('sha256')
      .update(JSON.stringify([caller.partnerId, merchantId, filters.state, filters.customerId]))
      .digest('base64url')
      .slice(0, 22);
    const page = pageRequest(query, this.cursors, 'stored-credentials', scope);
    const where = ['merchant_id = $1', 'partner_id = $2', 'state = $3'];
    const params: unknown[] = [merchantId, caller.partnerId, filters.state];
    if (filters.customerId) where.push(`customer_id = $${params.push(filters.customerId)}`);
    const { rows, total } = await listSnapshots<StoredCredential>(
      this.pool,
      'stored_credential_list',
      where,
      params,
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toStoredCredentialResource(row.snapshot),
      (key) => this.cursors.encode('stored-credentials', scope, key),
    );
  }

  @Get(':storedCredentialId')
  @PartnerRoute('stored_credential:read')
  @Describe({ summary: 'Read a stored credential', response: StoredCredentialResourceSchema })
  async read(
    @Param('merchantId', UuidParam) merchantId: string,
    @Param('storedCredentialId', UuidParam) storedCredentialId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toStoredCredentialResource(
      await this.credentials.getForMerchant(storedCredentialId, merchantId, caller.partnerId),
    );
  }

  /**
   * Revokes: 204 with an empty body. `reason` (optional free text, trimmed, at most 500
   * characters) is recorded on the credential's stream. Revoking a REVOKED credential is 409
   * `invalid_state_transition`.
   */
  @Delete(':storedCredentialId')
  @HttpCode(204)
  @PartnerRoute('stored_credential:revoke')
  @Describe({
    summary: 'Revoke a stored credential (it still reads, cannot be charged)',
    response: null,
    query: REVOKE_QUERY,
    errors: [409],
  })
  async revoke(
    @Param('merchantId', UuidParam) merchantId: string,
    @Param('storedCredentialId', UuidParam) storedCredentialId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    const reason = revocationReason(query);
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    await this.credentials.getForMerchant(storedCredentialId, merchantId, caller.partnerId);
    await this.commands.execute(
      new RevokeStoredCredential(metadataOf(request, caller.partnerId), storedCredentialId, reason),
    );
  }
}

function listFilters(query: Record<string, unknown>): {
  state: StoredCredentialState;
  customerId: string | null;
} {
  const filters = strictQuery(query, LIST_QUERY);
  return { state: filters.state ?? 'ACTIVE', customerId: filters.customer_id ?? null };
}

function revocationReason(query: Record<string, unknown>): string | null {
  return strictQuery(query, REVOKE_QUERY, { paged: false }).reason || null;
}
