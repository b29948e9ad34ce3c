export * from './domain';
export { MerchantsModule } from './merchants.module';
export { MerchantReader } from './application/merchant-reader';
export { MerchantPricing } from './application/merchant-pricing';
export {
  normalizeCustomFieldValues,
  validateCustomFieldValues,
} from './domain/custom-fields/custom-field-values';
export type { TransactionPrice } from './domain/fees/fee-pricing';
export { RunMerchantCommand } from './application/merchant-commands';
export type { MerchantCommandInput } from './application/merchant-commands';
export { runMerchantCommand } from './http/run-merchant-command';
