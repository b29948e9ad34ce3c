import { Module } from '@nestjs/common';
import { Pool } from 'pg';
import { PaymentGateway, PostgresSandboxMemory, SandboxGateway } from '../../gateway/src';
import { MerchantsModule } from '../../merchants/src';
import { Clock } from '../../platform/src/clock/clock';
import { CardVault } from './application/card-vault';
import {
  MintStoredCredentialHandler,
  RevokeStoredCredentialHandler,
  RunStoredCredentialCommandHandler,
} from './application/stored-credential-commands';
import { StoredCredentialReader } from './application/stored-credential-reader';
import { StoredCredentialsController } from './http/stored-credentials.controller';

/**
 * The vault: sealed card and bank data (CardVault) and the stored credentials minted on it
 * (read, list, revoke). The payment gateway port is provided here, the sandbox adapter on the
 * platform clock with its records in PostgreSQL, until a processor adapter exists; other modules
 * import it from here.
 */
@Module({
  imports: [MerchantsModule],
  controllers: [StoredCredentialsController],
  providers: [
    {
      provide: PaymentGateway,
      // The sandbox keeps its records in the database, shared by every process (docs/gateway.md).
      useFactory: async (clock: Clock, pool: Pool) => {
        await PostgresSandboxMemory.migrate(pool);
        return new SandboxGateway(clock, { memory: new PostgresSandboxMemory(pool) });
      },
      inject: [Clock, Pool],
    },
    CardVault,
    RunStoredCredentialCommandHandler,
    MintStoredCredentialHandler,
    RevokeStoredCredentialHandler,
    StoredCredentialReader,
  ],
  exports: [CardVault, PaymentGateway, StoredCredentialReader],
})
export class VaultModule {}
