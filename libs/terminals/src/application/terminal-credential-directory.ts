import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import {
  TerminalCredentialDirectory,
  type TerminalCredential,
} from '../../../platform/src/auth/credential-directory';

/**
 * The guard's terminal-key lookup, over the `terminal_list` read model (every terminal write
 * waits for it, so a rotated or decommissioned key is refused from the next request on) and the
 * partner's enabled flags and rate-limit tier from `partner_access`.
 */
@Injectable()
export class SqlTerminalCredentialDirectory extends TerminalCredentialDirectory {
  constructor(private readonly pool: Pool) {
    super();
  }

  async findByPrefix(prefix: string): Promise<TerminalCredential | null> {
    const { rows } = await this.pool.query<{
      id: string;
      partner_id: string;
      api_key_prefix: string;
      api_key_hash: string;
      enabled_features: string[];
      rate_limit_tier: string;
    }>(
      `select t.id, t.partner_id, t.api_key_prefix, t.api_key_hash, a.enabled_features, a.rate_limit_tier
         from terminal_list t join partner_access a on a.partner_id = t.partner_id
        where t.api_key_prefix = $1 and t.state <> 'DECOMMISSIONED'`,
      [prefix],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      terminalId: row.id,
      prefix: row.api_key_prefix,
      partnerId: row.partner_id,
      keyHash: row.api_key_hash,
      enabledFeatures: row.enabled_features,
      rateLimitTier: row.rate_limit_tier,
    };
  }
}
