import { US_STATES, US_TERRITORY_CODES, isUsStateCode } from './us-states';

const codes = US_STATES.map((s) => s.code);

describe('US states', () => {
  it('has the 50 states, DC and the 5 inhabited territories', () => {
    expect(US_STATES).toHaveLength(56);
    expect(codes).toContain('DC');
    expect(codes).toEqual(expect.arrayContaining([...US_TERRITORY_CODES]));
    expect(codes.filter((c) => c !== 'DC' && !US_TERRITORY_CODES.includes(c))).toHaveLength(50);
  });

  it('uses two upper-case letters, each code once, sorted', () => {
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
  });

  it('names each one, each name once', () => {
    for (const s of US_STATES) expect(s.name.trim()).not.toBe('');
    expect(new Set(US_STATES.map((s) => s.name)).size).toBe(US_STATES.length);
  });

  it.each([
    ['CA', 'California'],
    ['DC', 'District of Columbia'],
    ['PR', 'Puerto Rico'],
    ['VI', 'U.S. Virgin Islands'],
    ['MP', 'Northern Mariana Islands'],
  ])('%s is %s', (code, name) => expect(US_STATES.find((s) => s.code === code)?.name).toBe(name));

  it.each(['CA', 'NY', 'DC', 'GU', 'AS'])('accepts %s', (code) => expect(isUsStateCode(code)).toBe(true));

  it.each(['ca', 'AA', 'AE', 'AP', 'FM', 'MH', 'PW', 'UM', 'XX', '', 'CAL'])('refuses %j', (code) =>
    expect(isUsStateCode(code)).toBe(false),
  );
});
