import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { ExceptionResolutions } from '../application/exception-resolutions';
import { SettlementLists } from '../application/settlement-lists';
import { toReconciliationExceptionResource } from '../domain/reconciliation-exception-resource';
import { EXCEPTION_FILTERS, listScope } from '../wire/settlement-filters';
import { ResolveExceptionDto } from './resolve-exception.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { ReconciliationExceptionSchema } from '../domain/reconciliation-exception-resource';

const LIST = 'platform-reconciliation-exceptions';
/** The partner list's filters, and `partner_id`: the operator reads every partner's. */
const OPERATOR_EXCEPTION_FILTERS = { ...EXCEPTION_FILTERS, partner_id: queryParam.uuid() };

/**
 * An operator's resolution of a reconciliation exception (CONTRACT §2; the spec: "Resolution is
 * an operator action, never a partner action"): `POST /platform/reconciliation-exceptions/{id}/resolve`
 * with `state` (MANUAL_RESOLVED, WRITTEN_OFF, ESCALATED) and `resolution`. 200 with the exception
 * (`resolved_by` is the operator); resolving a resolved one is 409; a partner key is 403.
 */
@OperatorRoute()
@Controller('platform/reconciliation-exceptions')
export class PlatformReconciliationExceptionsController {
  constructor(
    private readonly resolutions: ExceptionResolutions,
    private readonly lists: SettlementLists,
    private readonly cursors: CursorCodec,
  ) {}

  /**
   * `GET /platform/reconciliation-exceptions`: every partner's exceptions, newest first, with the
   * partner list's filters plus `partner_id` (the operator console lists the OPEN ones).
   */
  @Get()
  @Describe({
    summary: 'Every reconciliation exception, newest first',
    response: pageOf(ReconciliationExceptionSchema),
    query: OPERATOR_EXCEPTION_FILTERS,
    paged: true,
  })
  async list(@Query() query: Record<string, unknown>) {
    const filters = strictQuery(query, OPERATOR_EXCEPTION_FILTERS);
    const scope = listScope('operator', filters);
    const page = pageRequest(query, this.cursors, LIST, scope);
    const { rows, total } = await this.lists.exceptions(
      null,
      {
        partnerId: filters.partner_id,
        merchantId: filters.merchant_id,
        state: filters.state,
        type: filters.type,
        severity: filters.severity,
      },
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toReconciliationExceptionResource(row.snapshot),
      (key) => this.cursors.encode(LIST, scope, key),
    );
  }

  @Post(':exceptionId/resolve')
  @HttpCode(200)
  @Describe({
    summary: 'Resolve an exception (MANUAL_RESOLVED, WRITTEN_OFF or ESCALATED)',
    response: ReconciliationExceptionSchema,
    errors: [409, 422],
  })
  async resolve(
    @Param('exceptionId', UuidParam) exceptionId: string,
    @Body() body: ResolveExceptionDto,
    @Req() request: FastifyRequest,
  ) {
    const exception = await this.resolutions.resolve(
      exceptionId,
      body.state,
      body.resolution,
      metadataOf(request),
    );
    return toReconciliationExceptionResource(exception);
  }
}
