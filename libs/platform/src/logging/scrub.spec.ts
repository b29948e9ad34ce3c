import { luhnDigitsValid as luhnValid } from '../banking/luhn';
import { scrubLogLine, scrubText } from './scrub';

/** A Luhn-valid number of `length` digits starting with `start` (the last digit is the check). */
function cardNumber(start: string, length: number, fill = (i: number) => String((i * 7) % 10)): string {
  let body = start;
  while (body.length < length - 1) body += fill(body.length);
  for (let check = 0; check <= 9; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('unreachable');
}

/** Seeded, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('scrubbing text on its way to a log', () => {
  describe('card numbers (13 to 19 digits, Luhn-valid, separators allowed)', () => {
    it.each([
      ['a query string', '/api/v1/transactions?q=4111111111111111', '/api/v1/transactions?q=[card ****1111]'],
      ['spaces', 'card 4111 1111 1111 1111 on file', 'card [card ****1111] on file'],
      ['dashes', 'x=5555-5555-5555-4444&y=1', 'x=[card ****4444]&y=1'],
      ['`+` (a space in a query string)', '?q=4111+1111+1111+1111', '?q=[card ****1111]'],
      ['%20 between the groups', '?q=4111%201111%201111%201111', '?q=[card ****1111]'],
      ['a percent-escape glued to the digits', '?q=%204111111111111111', '?q= [card ****1111]'],
      ['percent-encoded digits', '?q=%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31', '?q=[card ****1111]'],
      [
        'a path segment',
        '/api/v1/transactions/378282246310005/refund',
        '/api/v1/transactions/[card ****0005]/refund',
      ],
      ['a card followed by its CVC', 'pan 4111 1111 1111 1111 123', 'pan [card ****1111] 123'],
      [
        'a database error',
        'ERROR:  invalid input syntax for type uuid: "6011111111111117"',
        'ERROR:  invalid input syntax for type uuid: "[card ****1117]"',
      ],
    ])('masks one in %s, keeping the last four digits', (_where, text, expected) => {
      expect(scrubText(text)).toBe(expected);
    });

    it('reads percent-encoded separators as separators, not as digits', () => {
      // Masked in place: the rest of the URL stays as it was sent.
      expect(scrubText('/x?q=4111%201111%201111%201111&pan_hint=%2F')).toBe(
        '/x?q=[card ****1111]&pan_hint=%2F',
      );
    });

    it('masks 13- and 19-digit numbers, and every card of a text', () => {
      const short = cardNumber('4', 13);
      const long = cardNumber('6', 19);
      const text = scrubText(`a ${short} b ${long} c`);
      expect(text).toBe(`a [card ****${short.slice(-4)}] b [card ****${long.slice(-4)}] c`);
    });

    it('leaves numbers alone that are not card-shaped', () => {
      const untouched = [
        '4111111111111112', // fails Luhn
        '411111111111', // 12 digits
        `${cardNumber('4', 16)}9999`, // glued to more digits: 20 digits, not a card
        '2026-11-24 20:34:16.123 UTC [4711] LOG:  checkpoint complete',
        'request 9f8e7d6c-5b4a-4321-8fed-cba987654321 took 12 ms',
        'amount 1050 minor, position 123456',
      ];
      for (const text of untouched) expect(scrubText(text)).toBe(text);
    });

    it('no Luhn-valid 13–19 digit number survives, whatever its separators', () => {
      const random = seeded(42);
      const separators = [' ', '-', '+', '%20', '%2D', ' - ', '\t'];
      for (let n = 0; n < 2000; n++) {
        const length = 13 + Math.floor(random() * 7);
        const card = cardNumber(String(1 + Math.floor(random() * 9)), length, () =>
          String(Math.floor(random() * 10)),
        );
        let text = '';
        for (let i = 0; i < card.length; i++) {
          text += card[i];
          if (i < card.length - 1 && random() < 0.25) {
            text += separators[Math.floor(random() * separators.length)];
          }
        }
        const scrubbed = scrubText(`GET /api/v1/transactions?q=${text}&page_size=10`);
        expect(scrubbed.replace(/\D/g, '')).not.toContain(card);
        expect(scrubbed).toContain(`[card ****${card.slice(-4)}]`);
      }
    });
  });

  describe('bank account and routing numbers (by the name they travel under)', () => {
    it.each([
      [
        'query values',
        '/x?account_number=000123456789&routing_number=011000015',
        '/x?account_number=[redacted]&routing_number=[redacted]',
      ],
      ['JSON', '{"account_number":"0001 2345 6789","x":1}', '{"account_number":"[redacted]","x":1}'],
      [
        'JSON inside a string',
        '{\\"accountNumber\\":\\"123456789\\"}',
        '{\\"accountNumber\\":\\"[redacted]\\"}',
      ],
      [
        'a path segment after the name',
        '/bank/account_number/123456789/x',
        '/bank/account_number/[redacted]/x',
      ],
      ['a percent-encoded `=`', 'q=bank_account_no%3D123456789', 'q=bank_account_no%3D[redacted]'],
      ['an IBAN', 'iban: DE89370400440532013000.', 'iban: [redacted].'],
    ])('drops the value in %s', (_where, text, expected) => {
      expect(scrubText(text)).toBe(expected);
    });

    it('does not take a word that merely ends like a name for one', () => {
      expect(scrubText('japan: 1234 company=5')).toBe('japan: 1234 company=5');
    });
  });

  it('keeps only the prefix of a terminal key, wherever it sits', () => {
    const key = 'ctk_Tm9rAbCd_0123456789abcdefghijklmnopqrstuv';
    expect(scrubText(`Bearer ${key}`)).toBe('Bearer ctk_Tm9rAbCd_[redacted]');
    expect(scrubText(`/terminals?key=${key}&x=1`)).toBe('/terminals?key=ctk_Tm9rAbCd_[redacted]&x=1');
    const line = scrubLogLine(
      `${JSON.stringify({ level: 'info', msg: `refused ${key}`, req: { url: `/x/${key}` } })}\n`,
    );
    expect(line).not.toContain('0123456789abcdefghijklmnopqrstuv');
    expect(JSON.parse(line)).toMatchObject({
      msg: 'refused ctk_Tm9rAbCd_[redacted]',
      req: { url: '/x/ctk_Tm9rAbCd_[redacted]' },
    });
  });

  it('still keeps only the prefix of an API key (also an older one with `_` in its prefix)', () => {
    expect(scrubText('Bearer csk_ab_cd-EF_0123456789abcdefghijklmn')).toBe('Bearer csk_ab_cd-EF_[redacted]');
    expect(scrubText('?api_key=csk_abcdefgh_ABCDEFGHIJKLMNOPQRSTUVWXYZ123')).toBe(
      '?api_key=csk_abcdefgh_[redacted]',
    );
  });

  describe('a whole log line', () => {
    it('stays valid JSON wherever the number sat: in text, a bare number, a key, a nested field', () => {
      const line = `${JSON.stringify({
        level: 'debug',
        msg: 'x:4111111111111111,"',
        n: 4111111111111111,
        nested: { cvc: '123', routing_number: 11000015, list: ['5555 5555 5555 4444'] },
        '4111111111111111': true,
      })}\n`;
      const scrubbed = scrubLogLine(line);
      expect(scrubbed.endsWith('\n')).toBe(true);
      expect(JSON.parse(scrubbed)).toEqual({
        level: 'debug',
        msg: 'x:[card ****1111],"',
        n: '[card ****1111]',
        nested: { cvc: '[redacted]', routing_number: '[redacted]', list: ['[card ****4444]'] },
        '[card ****1111]': true,
      });
    });

    it('returns a line with nothing to scrub as it was', () => {
      const line =
        '{"level":"info","time":"2026-11-24T20:34:16.123Z","msg":"request completed","responseTime":1.5}\n';
      expect(scrubLogLine(line)).toBe(line);
    });

    it('scrubs a line that is not JSON as text', () => {
      expect(scrubLogLine('oops 4111111111111111\n')).toBe('oops [card ****1111]\n');
    });
  });
});
