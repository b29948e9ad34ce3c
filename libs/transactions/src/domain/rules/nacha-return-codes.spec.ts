import { isReturnCode, NACHA_RETURN_CODES, returnCode } from './nacha-return-codes';

describe('NACHA return codes', () => {
  it('lists the 70 assigned codes once each, in order', () => {
    const codes = NACHA_RETURN_CODES.map((e) => e.code);
    expect(codes).toHaveLength(70);
    expect(new Set(codes).size).toBe(70);
    expect([...codes].sort()).toEqual(codes);
    expect(codes.every((c) => /^R[0-9]{2}$/.test(c))).toBe(true);
    expect(codes).toEqual(expect.arrayContaining(['R40', 'R47', 'R50', 'R53', 'R61', 'R62', 'R67', 'R77']));
    expect(codes).toEqual(expect.arrayContaining(['R80', 'R81', 'R82', 'R83', 'R84', 'R85']));
  });

  it('marks exactly R01 and R09 soft', () => {
    const soft = NACHA_RETURN_CODES.filter((e) => e.severity === 'soft').map((e) => e.code);
    expect(soft).toEqual(['R01', 'R09']);
    expect(returnCode('R01')).toEqual({
      code: 'R01',
      description: 'Insufficient funds',
      severity: 'soft',
      unauthorized: false,
    });
    expect(returnCode('R09')?.description).toBe('Uncollected funds');
  });

  it('marks the others hard', () => {
    expect(returnCode('R02')).toMatchObject({ description: 'Account closed', severity: 'hard' });
    expect(returnCode('R03')?.severity).toBe('hard');
    expect(returnCode('R85')?.severity).toBe('hard');
  });

  it('flags exactly the unauthorized-return codes', () => {
    const unauthorized = NACHA_RETURN_CODES.filter((e) => e.unauthorized).map((e) => e.code);
    expect(unauthorized).toEqual(['R05', 'R07', 'R10', 'R11', 'R29', 'R51']);
  });

  it.each(['R00', 'r01', 'R99', 'R1', 'R001', ' R01', 'R48', 'R63', 'R78', ''])(
    'does not know %p',
    (code) => {
      expect(returnCode(code)).toBeNull();
      expect(isReturnCode(code)).toBe(false);
    },
  );

  it('narrows only strings', () => {
    expect(isReturnCode('R16')).toBe(true);
    expect(isReturnCode(1)).toBe(false);
    expect(isReturnCode(null)).toBe(false);
  });

  it('cannot be altered', () => {
    expect(Object.isFrozen(NACHA_RETURN_CODES)).toBe(true);
    expect(Object.isFrozen(NACHA_RETURN_CODES[0])).toBe(true);
  });
});
