import { Module } from '@nestjs/common';
import { PaymentGateway, SandboxGateway } from '../../gateway/src';
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
 * platform clock, until a processor adapter exists; other modules import it from here.
 */
@Module({
  imports: [MerchantsModule],
  controllers: [StoredCredentialsController],
  providers: [
    { provide: PaymentGateway, useFactory: (clock: Clock) => new SandboxGateway(clock), inject: [Clock] },
    CardVault,
    RunStoredCredentialCommandHandler,
    MintStoredCredentialHandler,
    RevokeStoredCredentialHandler,
    StoredCredentialReader,
  ],
  exports: [CardVault, PaymentGateway, StoredCredentialReader],
})
export class VaultModule {}
