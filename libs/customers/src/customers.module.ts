import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src';
import { RunCustomerCommandHandler } from './application/customer-commands';
import { CustomerReader } from './application/customer-reader';
import { CustomersController } from './http/customers.controller';

/** Customers: a merchant's payers (create, read, list, PATCH, soft delete). */
@Module({
  imports: [MerchantsModule],
  controllers: [CustomersController],
  providers: [RunCustomerCommandHandler, CustomerReader],
  exports: [CustomerReader],
})
export class CustomersModule {}
