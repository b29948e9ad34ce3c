import { Module } from '@nestjs/common';
import { PartnersModule } from '../../partners/src';
import { RunMerchantCommandHandler } from './application/merchant-commands';
import { MerchantPricing } from './application/merchant-pricing';
import { MerchantReader } from './application/merchant-reader';
import { BankAccountVault } from './application/bank-account-vault';
import { BankVerificationController } from './http/bank-verification.controller';
import { CustomFieldsController } from './http/custom-fields.controller';
import { FeesController } from './http/fees.controller';
import { DocumentStore } from './application/document-store';
import { ComplianceDocumentsController } from './http/compliance-documents.controller';
import { MerchantComplianceController } from './http/merchant-compliance.controller';
import { MerchantsController } from './http/merchants.controller';
import { PlatformMerchantsController } from './http/platform-merchants.controller';

/** Merchants: onboarding lifecycle, merchant operations, custom fields, hosted-page configuration. */
@Module({
  imports: [PartnersModule],
  controllers: [
    MerchantsController,
    MerchantComplianceController,
    ComplianceDocumentsController,
    CustomFieldsController,
    FeesController,
    BankVerificationController,
    PlatformMerchantsController,
  ],
  providers: [RunMerchantCommandHandler, MerchantReader, BankAccountVault, DocumentStore, MerchantPricing],
  exports: [MerchantReader, MerchantPricing, PartnersModule],
})
export class MerchantsModule {}
