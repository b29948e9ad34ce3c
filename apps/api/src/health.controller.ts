import { Controller, Get } from '@nestjs/common';
import { PublicRoute } from '../../../libs/platform/src/auth/access';

/** The one unauthenticated endpoint (CONTRACT §1): 200 once the server accepts requests. */
@PublicRoute()
@Controller('health')
export class HealthController {
  @Get()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
