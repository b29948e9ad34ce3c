import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OperatorRoute } from '../../../platform/src/auth/access';
import { metadataOf } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { ExceptionResolutions } from '../application/exception-resolutions';
import { toReconciliationExceptionResource } from '../domain/reconciliation-exception-resource';
import { ResolveExceptionDto } from './resolve-exception.dto';

/**
 * An operator's resolution of a reconciliation exception (CONTRACT §2; the spec: "Resolution is
 * an operator action, never a partner action"): `POST /platform/reconciliation-exceptions/{id}/resolve`
 * with `state` (MANUAL_RESOLVED, WRITTEN_OFF, ESCALATED) and `resolution`. 200 with the exception
 * (`resolved_by` is the operator); resolving a resolved one is 409; a partner key is 403.
 */
@OperatorRoute()
@Controller('platform/reconciliation-exceptions')
export class PlatformReconciliationExceptionsController {
  constructor(private readonly resolutions: ExceptionResolutions) {}

  @Post(':exceptionId/resolve')
  @HttpCode(200)
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
