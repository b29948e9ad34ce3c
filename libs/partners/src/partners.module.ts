import { Module } from '@nestjs/common';
import { CredentialDirectory } from '../../platform/src/auth/credential-directory';
import { CertificationFacts } from './application/certification-facts';
import { PARTNER_COMMAND_HANDLERS } from './application/partner-commands';
import { PartnerReader, SqlCredentialDirectory } from './application/partner-reader';
import { CertificationController } from './http/certification.controller';
import { PartnerConfigController } from './http/partner-config.controller';
import { PartnerController } from './http/partner.controller';
import { PlatformPartnersController } from './http/platform-partners.controller';

/** Partners: identity, API keys, configuration, feature flags and certification. */
@Module({
  controllers: [
    PlatformPartnersController,
    PartnerController,
    PartnerConfigController,
    CertificationController,
  ],
  providers: [
    ...PARTNER_COMMAND_HANDLERS,
    PartnerReader,
    CertificationFacts,
    { provide: CredentialDirectory, useClass: SqlCredentialDirectory },
  ],
  exports: [CredentialDirectory, PartnerReader, CertificationFacts],
})
export class PartnersModule {}
