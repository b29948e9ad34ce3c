import { Controller, Get } from '@nestjs/common';

/** The one unauthenticated endpoint (CONTRACT §1): 200 once the server accepts requests. */
@Controller('health')
export class HealthController {
  @Get()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
