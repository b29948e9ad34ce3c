import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { MerchantReader } from '../../../merchants/src';
import { PartnerRoute, RequiresFeature } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, idFor, metadataOf } from '../../../platform/src/http/request-metadata';
import { queryParam, strictQuery } from '../../../platform/src/http/strict-query';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { listSnapshots } from '../../../platform/src/pagination/snapshot-list';
import { RegisterTerminal } from '../application/register-terminal';
import { RunTerminalCommand } from '../application/terminal-commands';
import { IssueTerminalKey, type IssuedTerminalKey } from '../application/terminal-keys';
import { TerminalReader } from '../application/terminal-reader';
import type { TerminalCommandType } from '../domain/decide';
import type { Terminal } from '../domain/terminal';
import { toTerminalKeyResource, toTerminalResource } from '../domain/terminal-resource';
import { TERMINAL_STATES } from '../domain/terminal-states';
import { CreateTerminalDto } from './terminal.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { TerminalKeyResourceSchema, TerminalResourceSchema } from '../domain/terminal-resource';

const TERMINAL_LIST_QUERY = {
  merchant_id: queryParam.uuid(),
  state: queryParam.oneOf(TERMINAL_STATES),
};

/** The lifecycle actions that take no body and answer the terminal (docs/terminals.md). */
type LifecycleCommand = Extract<
  TerminalCommandType,
  | 'SuspendTerminal'
  | 'ReactivateTerminal'
  | 'StartTerminalMaintenance'
  | 'EndTerminalMaintenance'
  | 'DecommissionTerminal'
>;

/**
 * A partner's payment terminals ("Terminals" in the spec; a planned operation, served only when
 * `RELEASED_OPERATIONS` names `terminals`, CONTRACT §9). Every route needs the `terminals`
 * feature flag. A terminal of another partner is 404 `terminal_not_found`, like one that does not
 * exist; a merchant of another partner is 404 `merchant_not_found`.
 */
@Controller('terminals')
@RequiresFeature('terminals')
export class TerminalsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly terminals: TerminalReader,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first, every state unless `state` is given; `merchant_id` must be the caller's merchant. */
  @Get()
  @PartnerRoute('terminal:read')
  @Describe({
    summary: 'The partner’s terminals, newest first',
    response: pageOf(TerminalResourceSchema),
    query: TERMINAL_LIST_QUERY,
    paged: true,
    errors: [404],
  })
  async list(@Query() query: Record<string, unknown>, @CurrentPartner() caller: PartnerPrincipal) {
    const filters = strictQuery(query, TERMINAL_LIST_QUERY);
    if (filters.merchant_id) await this.merchants.getForPartner(filters.merchant_id, caller.partnerId);
    const scope = `partner:${caller.partnerId}:${filters.merchant_id ?? ''}:${filters.state ?? ''}`;
    const page = pageRequest(query, this.cursors, 'terminals', scope);
    const where = ['partner_id = $1'];
    const params: unknown[] = [caller.partnerId];
    if (filters.merchant_id) where.push(`merchant_id = $${params.push(filters.merchant_id)}`);
    if (filters.state) where.push(`state = $${params.push(filters.state)}`);
    const { rows, total } = await listSnapshots<Terminal>(this.pool, 'terminal_list', where, params, page);
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toTerminalResource(row.snapshot),
      (key) => this.cursors.encode('terminals', scope, key),
    );
  }

  /** 201: the terminal, UNASSIGNED. A serial number the merchant already uses is 409. */
  @Post()
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Register a terminal (UNASSIGNED)',
    response: TerminalResourceSchema,
    errors: [404, 409, 422],
  })
  async create(
    @Body() body: CreateTerminalDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchantId = body.merchant_id.toLowerCase();
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    const terminal: Terminal = await this.commands.execute(
      new RegisterTerminal(
        {
          terminalId: idFor(request.commandId, 'terminal', randomUUID),
          merchantId,
          partnerId: caller.partnerId,
          serialNumber: body.serial_number,
          model: body.model,
        },
        metadataOf(request, caller.partnerId),
      ),
    );
    return toTerminalResource(terminal);
  }

  @Get(':terminalId')
  @PartnerRoute('terminal:read')
  @Describe({ summary: 'Read a terminal', response: TerminalResourceSchema })
  async read(@Param('terminalId', UuidParam) terminalId: string, @CurrentPartner() caller: PartnerPrincipal) {
    return toTerminalResource(await this.terminals.getForPartner(terminalId, caller.partnerId));
  }

  /** 201 `{terminal, api_key, rotated_at}`: UNASSIGNED → PROVISIONED; `api_key` is shown here only. */
  @Post(':terminalId/provision')
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Provision a terminal: its API key, shown once',
    response: TerminalKeyResourceSchema,
    errors: [409],
  })
  async provision(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.issueKey(request, caller, terminalId, 'provision');
  }

  /** 201, the same shape: a new key; the previous one is refused (401) from then on. */
  @Post(':terminalId/rotate-api-key')
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Rotate a terminal’s API key (the new one shown once)',
    response: TerminalKeyResourceSchema,
    errors: [409],
  })
  async rotateApiKey(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.issueKey(request, caller, terminalId, 'rotate');
  }

  /** PROVISIONED, ACTIVE or MAINTENANCE → SUSPENDED. */
  @Post(':terminalId/suspend')
  @HttpCode(200)
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Suspend a terminal (ACTIVE → SUSPENDED)',
    response: TerminalResourceSchema,
    errors: [409],
  })
  suspend(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, terminalId, 'SuspendTerminal');
  }

  /** SUSPENDED → the state it was suspended from. */
  @Post(':terminalId/reactivate')
  @HttpCode(200)
  @PartnerRoute('terminal:write')
  @Describe({ summary: 'Reactivate a suspended terminal', response: TerminalResourceSchema, errors: [409] })
  reactivate(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, terminalId, 'ReactivateTerminal');
  }

  /** ACTIVE → MAINTENANCE. */
  @Post(':terminalId/start-maintenance')
  @HttpCode(200)
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Start maintenance (ACTIVE → MAINTENANCE)',
    response: TerminalResourceSchema,
    errors: [409],
  })
  startMaintenance(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, terminalId, 'StartTerminalMaintenance');
  }

  /** MAINTENANCE → ACTIVE. */
  @Post(':terminalId/end-maintenance')
  @HttpCode(200)
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'End maintenance (MAINTENANCE → ACTIVE)',
    response: TerminalResourceSchema,
    errors: [409],
  })
  endMaintenance(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, terminalId, 'EndTerminalMaintenance');
  }

  /** Any state but DECOMMISSIONED → DECOMMISSIONED; the key stops working at once. */
  @Post(':terminalId/decommission')
  @HttpCode(200)
  @PartnerRoute('terminal:write')
  @Describe({
    summary: 'Decommission a terminal (for good)',
    response: TerminalResourceSchema,
    errors: [409],
  })
  decommission(
    @Param('terminalId', UuidParam) terminalId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    return this.act(request, caller, terminalId, 'DecommissionTerminal');
  }

  private async issueKey(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    terminalId: string,
    mode: 'provision' | 'rotate',
  ) {
    await this.terminals.getForPartner(terminalId, caller.partnerId);
    const issued: IssuedTerminalKey = await this.commands.execute(
      new IssueTerminalKey(terminalId, mode, metadataOf(request, caller.partnerId)),
    );
    return toTerminalKeyResource(issued.terminal, issued.apiKey);
  }

  private async act(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    terminalId: string,
    type: LifecycleCommand,
  ) {
    await this.terminals.getForPartner(terminalId, caller.partnerId);
    const result = await this.commands.execute(
      new RunTerminalCommand({ type, terminalId }, metadataOf(request, caller.partnerId)),
    );
    return toTerminalResource(result.state);
  }
}
