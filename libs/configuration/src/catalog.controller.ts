import { Controller, Get } from '@nestjs/common';
import { PartnerRoute } from '../../platform/src/auth/access';
import { z } from 'zod';
import { Describe } from '../../platform/src/openapi/describe';
import { MCC_CATALOG, MccCatalogItemResource } from './domain/mcc-catalog';
import { US_STATES, UsStateResource } from './domain/us-states';

/** Reference data partners build forms from (spec "Catalog items"). */
@Controller('config')
export class CatalogController {
  @Get('mcc-catalog')
  @PartnerRoute('config:read')
  @Describe({
    summary: 'The merchant category codes, with risk and BAA requirement',
    response: z.array(MccCatalogItemResource),
  })
  mccCatalog() {
    return MCC_CATALOG;
  }

  @Get('us-states')
  @PartnerRoute('config:read')
  @Describe({ summary: 'US states and territories', response: z.array(UsStateResource) })
  usStates() {
    return US_STATES;
  }
}
