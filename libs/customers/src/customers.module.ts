import { Module } from '@nestjs/common';
import { MerchantsModule } from '../../merchants/src/merchants.module';
import { ExecuteCustomerCommandHandler } from './application/customer-commands';
import { CustomerCommands } from './application/customer-commands.service';
import { CustomerReader } from './application/customer-reader';
import { CustomersController } from './http/customers.controller';

/** Customers: a merchant's payers (create, read, list, PATCH, soft delete). */
@Module({
  imports: [MerchantsModule],
  controllers: [CustomersController],
  providers: [ExecuteCustomerCommandHandler, CustomerCommands, CustomerReader],
  exports: [CustomerReader, CustomerCommands],
})
export class CustomersModule {}
