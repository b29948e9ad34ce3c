import Fastify from 'fastify';
import { createLogger, scrubSecrets } from './logger';

const KEY = 'csk_abcdefgh_ABCDEFGHIJKLMNOPQRSTUVWXYZ123';
const OPERATOR = 'cop_Zy-x_9w8_abcdefghijklmnopqrstuvwxyz';
const TERMINAL = 'ctk_Tm9rAbCd_ABCDEFGHIJKLMNOPQRSTUVWXYZ456';

function captured() {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', { write: (line: string) => lines.push(line) }) };
}

describe('logs never carry a key', () => {
  it('keeps the prefix and drops the secret of partner, operator and terminal keys in any text', () => {
    expect(scrubSecrets(`/partner/me?api_key=${KEY}&x=1`)).toBe(
      '/partner/me?api_key=csk_abcdefgh_[redacted]&x=1',
    );
    expect(scrubSecrets(`Bearer ${OPERATOR}`)).toBe('Bearer cop_Zy-x_9w8_[redacted]');
    expect(scrubSecrets(`Bearer ${TERMINAL}`)).toBe('Bearer ctk_Tm9rAbCd_[redacted]');
    expect(scrubSecrets('csk_short_x and plain text')).toBe('csk_short_x and plain text');
  });

  it('a key in the query string of a request does not reach Fastify’s request log', async () => {
    const { lines, logger } = captured();
    const app = Fastify({ loggerInstance: logger.child({ component: 'http' }) });
    app.get('/partner/me', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: `/partner/me?api_key=${KEY}` });
    await app.close();
    const text = lines.join('');
    expect(text).toContain('"url":"/partner/me?api_key=csk_abcdefgh_[redacted]"');
    expect(text).not.toContain('ABCDEFGHIJKLMNOPQRSTUVWXYZ123');
  });

  it('nor a log message quoting one', () => {
    const { lines, logger } = captured();
    logger.warn({ attempt: 1 }, `refused ${KEY}`);
    logger.warn({ attempt: 2 }, `refused ${TERMINAL}`);
    expect(lines.join('')).toContain('refused ctk_Tm9rAbCd_[redacted]');
    expect(lines.join('')).not.toContain('ABCDEFGHIJKLMNOPQRSTUVWXYZ456');
    expect(lines.join('')).toContain('refused csk_abcdefgh_[redacted]');
    expect(lines.join('')).not.toContain('ABCDEFGHIJKLMNOPQRSTUVWXYZ123');
  });
});
