import { Module } from '@nestjs/common';
import { PartnersModule } from '../../partners/src/partners.module';
import { ExecuteMerchantCommandHandler } from './application/merchant-commands';
import { MerchantReader } from './application/merchant-reader';
import { CustomFieldsController } from './http/custom-fields.controller';
import { MerchantComplianceController } from './http/merchant-compliance.controller';
import { MerchantsController } from './http/merchants.controller';
import { PlatformMerchantsController } from './http/platform-merchants.controller';

/** Merchants: onboarding lifecycle, merchant operations, custom fields, hosted-page configuration. */
@Module({
  imports: [PartnersModule],
  controllers: [
    MerchantsController,
    MerchantComplianceController,
    CustomFieldsController,
    PlatformMerchantsController,
  ],
  providers: [ExecuteMerchantCommandHandler, MerchantReader],
  exports: [MerchantReader],
})
export class MerchantsModule {}
