import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { listSnapshots } from '../../../platform/src/pagination/snapshot-list';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { MerchantReader } from '../../../merchants/src';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { CurrentPartner, idFor } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { RunCustomerCommand, type CustomerCommandInput } from '../application/customer-commands';
import { CustomerReader } from '../application/customer-reader';
import type { Customer } from '../domain/customer';
import { toCustomerResource } from '../domain/customer-resource';
import type { CustomerAddressInput } from '../domain/customer-rules';
import { CreateCustomerDto, UpdateCustomerDto, type CustomerAddressDto } from './customer.dto';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { CustomerResourceSchema } from '../domain/customer-resource';

/**
 * A merchant's customers ("Customers" in the spec). The merchant must be the caller's own (404
 * `merchant_not_found` otherwise, before anything else); a customer that is missing, deleted or
 * another merchant's is 404 `customer_not_found`.
 */
@Controller('merchants/:merchantId/customers')
export class CustomersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly customers: CustomerReader,
    private readonly merchants: MerchantReader,
    private readonly pool: Pool,
    private readonly cursors: CursorCodec,
  ) {}

  /** Newest first; deleted customers are not listed. Any parameter but the page's is 400. */
  @Get()
  @PartnerRoute('customer:read')
  @Describe({
    summary: 'The merchant’s customers, newest first (deleted ones not listed)',
    response: pageOf(CustomerResourceSchema),
    paged: true,
  })
  async list(
    @Param('merchantId', UuidParam) merchantId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    strictQuery(query, {}); // no filters: only cursor and page_size
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    const scope = `partner:${caller.partnerId}:merchant:${merchantId}`;
    const page = pageRequest(query, this.cursors, 'customers', scope);
    const { rows, total } = await listSnapshots<Customer>(
      this.pool,
      'customer_list',
      ['merchant_id = $1', 'partner_id = $2', 'not deleted'],
      [merchantId, caller.partnerId],
      page,
    );
    return toPage(
      rows,
      page,
      total,
      (row) => row.position_key,
      (row) => toCustomerResource(row.snapshot),
      (key) => this.cursors.encode('customers', scope, key),
    );
  }

  @Post()
  @PartnerRoute('customer:write')
  @Describe({ summary: 'Create a customer', response: CustomerResourceSchema })
  async create(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: CreateCustomerDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    const customer = await this.run(request, caller, {
      type: 'CreateCustomer',
      customerId: idFor(request.commandId, 'customer', randomUUID),
      merchantId,
      partnerId: caller.partnerId,
      email: body.email,
      displayName: body.display_name ?? null,
      phone: body.phone ?? null,
      address: addressInput(body.address),
    });
    return toCustomerResource(customer);
  }

  @Get(':customerId')
  @PartnerRoute('customer:read')
  @Describe({ summary: 'Read a customer', response: CustomerResourceSchema })
  async read(
    @Param('merchantId', UuidParam) merchantId: string,
    @Param('customerId', UuidParam) customerId: string,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    return toCustomerResource(await this.customers.getForMerchant(customerId, merchantId, caller.partnerId));
  }

  /** Omitted or null: unchanged; `""` clears display_name and phone; clear_address removes the address. */
  @Patch(':customerId')
  @PartnerRoute('customer:write')
  @Describe({
    summary: 'Change a customer',
    description:
      'Omitted or null: unchanged; `""` clears display_name and phone; `clear_address: true` removes the address.',
    response: CustomerResourceSchema,
  })
  async update(
    @Param('merchantId', UuidParam) merchantId: string,
    @Param('customerId', UuidParam) customerId: string,
    @Body() body: UpdateCustomerDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    await this.customers.getForMerchant(customerId, merchantId, caller.partnerId);
    const customer = await this.run(request, caller, {
      type: 'UpdateCustomer',
      customerId,
      email: body.email ?? null,
      displayName: body.display_name ?? null,
      phone: body.phone ?? null,
      address: addressInput(body.address),
      clearAddress: body.clear_address ?? null,
    });
    return toCustomerResource(customer);
  }

  /** Soft delete: 204 with an empty body; from then on the customer is 404 and not listed. */
  @Delete(':customerId')
  @HttpCode(204)
  @PartnerRoute('customer:write')
  @Describe({ summary: 'Delete a customer (soft: 404 and unlisted from then on)', response: null })
  async remove(
    @Param('merchantId', UuidParam) merchantId: string,
    @Param('customerId', UuidParam) customerId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.merchants.getForPartner(merchantId, caller.partnerId);
    await this.customers.getForMerchant(customerId, merchantId, caller.partnerId);
    await this.run(request, caller, { type: 'DeleteCustomer', customerId });
  }

  private async run(
    request: FastifyRequest,
    caller: PartnerPrincipal,
    command: CustomerCommandInput,
  ): Promise<Customer> {
    return (
      await this.commands.execute(new RunCustomerCommand(command, metadataOf(request, caller.partnerId)))
    ).state;
  }
}

function addressInput(address: CustomerAddressDto | null | undefined): CustomerAddressInput | null {
  if (address == null) return null;
  return {
    line1: address.line1,
    line2: address.line2 ?? null,
    city: address.city,
    state: address.state,
    postalCode: address.postal_code,
    country: address.country,
  };
}
