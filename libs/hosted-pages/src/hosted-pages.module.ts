import { Module } from '@nestjs/common';
import { CustomersModule } from '../../customers/src';
import { MerchantsModule } from '../../merchants/src';
import { PartnersModule } from '../../partners/src';
import { RecurringModule } from '../../recurring/src';
import { TransactionsModule } from '../../transactions/src';
import { VaultModule } from '../../vault/src';
import { HostedCheckout } from './application/hosted-checkout';
import { HppSessionExpiry } from './application/hpp-session-expiry';
import { RunHppSessionCommandHandler } from './application/hpp-session-commands';
import { HppSessionReader } from './application/hpp-session-reader';
import { HppUrls } from './application/hpp-urls';
import { HppSessions } from './application/hpp-sessions.service';
import { HostedPageController } from './http/hosted-page.controller';
import { HppPageConfigController } from './http/hpp-page-config.controller';
import { HppSessionsController } from './http/hpp-sessions.controller';

/**
 * Hosted payment pages: their configuration, sessions (create, read, cancel, expiry), and the page
 * a payer uses (render, form post, completion through the transaction command path).
 */
@Module({
  imports: [
    PartnersModule,
    MerchantsModule,
    CustomersModule,
    VaultModule,
    TransactionsModule,
    RecurringModule,
  ],
  controllers: [HppPageConfigController, HppSessionsController, HostedPageController],
  providers: [
    RunHppSessionCommandHandler,
    HppSessionReader,
    HppUrls,
    HppSessions,
    HppSessionExpiry,
    HostedCheckout,
  ],
  exports: [HppSessionReader, HppSessions],
})
export class HostedPagesModule {}
