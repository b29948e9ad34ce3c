import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { RequiresFeature, TerminalRoute } from '../../../platform/src/auth/access';
import type { TerminalPrincipal } from '../../../platform/src/auth/principal';
import { CurrentTerminal, metadataOf } from '../../../platform/src/http/request-metadata';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { WithoutIdempotencyHeader } from '../../../platform/src/idempotency/idempotency.interceptor';
import { ReceiveTerminalHeartbeat } from '../application/terminal-heartbeats';
import { TerminalNotFound } from '../domain/terminal-errors';
import type { Terminal } from '../domain/terminal';
import { toTerminalResource } from '../domain/terminal-resource';
import { TerminalHeartbeatDto } from './terminal.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { TerminalResourceSchema } from '../domain/terminal-resource';

/**
 * The terminal's own call (docs/terminals.md): `Authorization: Bearer ctk_…`, the key its
 * provisioning issued. The first heartbeat of a PROVISIONED terminal makes it ACTIVE; a heartbeat
 * also reports `firmware_version`. No Idempotency-Key: a heartbeat says "alive now", and saying
 * it twice changes nothing a replay would protect. A terminal acts only on itself: any other id
 * is 404 `terminal_not_found`.
 */
@Controller('terminals/:terminalId/heartbeat')
@TerminalRoute()
@RequiresFeature('terminals')
export class TerminalHeartbeatController {
  constructor(private readonly commands: CommandBus) {}

  /** 200 with the terminal as it is now (a suspended terminal learns it here). */
  @Post()
  @HttpCode(200)
  @WithoutIdempotencyHeader()
  @Describe({
    summary: 'The terminal’s heartbeat, with its own key; answers the terminal as it is now',
    response: TerminalResourceSchema,
    errors: [409],
  })
  async heartbeat(
    @Param('terminalId', UuidParam) terminalId: string,
    @Body() body: TerminalHeartbeatDto,
    @CurrentTerminal() caller: TerminalPrincipal,
    @Req() request: FastifyRequest,
  ) {
    if (terminalId !== caller.terminalId) throw new TerminalNotFound(terminalId);
    const terminal: Terminal = await this.commands.execute(
      new ReceiveTerminalHeartbeat(terminalId, body.firmware_version ?? null, metadataOf(request)),
    );
    return toTerminalResource(terminal);
  }
}
