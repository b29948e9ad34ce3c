import { Controller, Get } from '@nestjs/common';
import { PartnerRoute } from '../../platform/src/auth/access';
import { MCC_CATALOG } from './mcc-catalog';
import { US_STATES } from './us-states';

/** Reference data partners build forms from (spec "Catalog items"). */
@Controller('config')
export class CatalogController {
  @Get('mcc-catalog')
  @PartnerRoute('config:read')
  mccCatalog() {
    return MCC_CATALOG;
  }

  @Get('us-states')
  @PartnerRoute('config:read')
  usStates() {
    return US_STATES;
  }
}
