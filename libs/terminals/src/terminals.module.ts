import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src';
import { PartnersModule } from '../../partners/src';
import { TerminalCredentialDirectory } from '../../platform/src/auth/credential-directory';
import { RegisterTerminalHandler } from './application/register-terminal';
import { RunSerialClaimCommandHandler, RunTerminalCommandHandler } from './application/terminal-commands';
import { SqlTerminalCredentialDirectory } from './application/terminal-credential-directory';
import { ReceiveTerminalHeartbeatHandler } from './application/terminal-heartbeats';
import { IssueTerminalKeyHandler } from './application/terminal-keys';
import { TerminalReader } from './application/terminal-reader';
import { TerminalHeartbeatController } from './http/terminal-heartbeat.controller';
import { TerminalsController } from './http/terminals.controller';

/**
 * Terminals: register, provision, rotate keys, suspend, maintain, decommission, and the terminal's
 * heartbeat. A planned operation: the app imports this module only when `RELEASED_OPERATIONS`
 * names `terminals`, so otherwise the router has no terminal route at all (CONTRACT §9).
 */
@Module({
  imports: [MerchantsModule, PartnersModule],
  controllers: [TerminalsController, TerminalHeartbeatController],
  providers: [
    RunTerminalCommandHandler,
    RunSerialClaimCommandHandler,
    RegisterTerminalHandler,
    IssueTerminalKeyHandler,
    ReceiveTerminalHeartbeatHandler,
    TerminalReader,
    { provide: TerminalCredentialDirectory, useClass: SqlTerminalCredentialDirectory },
  ],
  exports: [TerminalCredentialDirectory, TerminalReader],
})
export class TerminalsModule {}
