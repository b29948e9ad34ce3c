import { ISO_ALPHA3_COUNTRY_CODES, isIsoAlpha3CountryCode } from './countries';

describe('ISO 3166-1 alpha-3 country codes', () => {
  it('lists the 249 assigned codes once each', () => {
    expect(ISO_ALPHA3_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_ALPHA3_COUNTRY_CODES).size).toBe(249);
    expect(ISO_ALPHA3_COUNTRY_CODES.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
  });

  it.each(['USA', 'CAN', 'MEX', 'GBR', 'DEU', 'SSD', 'BES', 'CUW'])('knows %s', (code) => {
    expect(isIsoAlpha3CountryCode(code)).toBe(true);
  });

  it.each(['usa', 'US', 'UK', 'XKX', 'ANT', 'EUE', ' USA', 840])('refuses %p', (code) => {
    expect(isIsoAlpha3CountryCode(code)).toBe(false);
  });
});
