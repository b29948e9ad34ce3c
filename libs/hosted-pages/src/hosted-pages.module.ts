import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src/merchants.module';
import { PartnersModule } from '../../partners/src/partners.module';
import { HppPageConfigController } from './http/hpp-page-config.controller';

/** Hosted payment pages: their configuration now; sessions and the page itself later. */
@Module({
  imports: [PartnersModule, MerchantsModule],
  controllers: [HppPageConfigController],
})
export class HostedPagesModule {}
