import { Controller, Get, Query } from '@nestjs/common';
import { PartnerRoute } from '../../platform/src/auth/access';
import { strictQuery } from '../../platform/src/http/strict-query';
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
  mccCatalog(@Query() query: Record<string, unknown>) {
    strictQuery(query, {}, { paged: false }); // the whole catalog; a filter would be ignored, so none is taken
    return MCC_CATALOG;
  }

  @Get('us-states')
  @PartnerRoute('config:read')
  @Describe({ summary: 'US states and territories', response: z.array(UsStateResource) })
  usStates(@Query() query: Record<string, unknown>) {
    strictQuery(query, {}, { paged: false });
    return US_STATES;
  }
}
