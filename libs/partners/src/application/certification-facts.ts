import { Injectable, Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EventMetadata } from '../../../event-store/src';
import type { Logger } from 'pino';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import type { FactCode } from '../domain/certification/certification-catalog';
import type { Partner } from '../domain/partner';
import { RunPartnerCommand } from './partner-commands';
import { PartnerReader } from './partner-reader';

/**
 * Records certification facts that are observations of requests rather than state changes (the
 * partner-identity read), or evidence another context saw (a terminal provisioned). Each fact is
 * recorded once per partner; a failure to record never fails the request that showed it.
 */
@Injectable()
export class CertificationFacts {
  constructor(
    private readonly commands: CommandBus,
    private readonly partners: PartnerReader,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** {@link observe} for a caller that knows only the partner's id (another context's evidence). */
  async observeFor(partnerId: string, fact: FactCode, metadata: EventMetadata): Promise<void> {
    const partner = await this.partners.find(partnerId).catch((err: unknown) => {
      this.logger.warn({ err, partner_id: partnerId, fact }, 'reading a partner to record a fact failed');
      return null;
    });
    if (partner) await this.observe(partner, fact, metadata);
  }

  /** Records the fact if new; answers the partner as it is afterwards. */
  async observe(partner: Partner, fact: FactCode, metadata: EventMetadata): Promise<Partner> {
    if (partner.certification.observedFacts[fact]) return partner;
    try {
      const result = await this.commands.execute(
        new RunPartnerCommand(
          { type: 'ObserveCertificationFact', partnerId: partner.id, fact },
          { ...metadata, causation_id: null },
        ),
      );
      return result.state;
    } catch (err) {
      this.logger.warn({ err, partner_id: partner.id, fact }, 'recording a certification fact failed');
      return partner;
    }
  }
}
