import {
  BAA_REQUIRED_MCCS,
  MCC_CATALOG,
  RED_RISK_MCCS,
  YELLOW_RISK_MCCS,
  findMcc,
  mccRisk,
} from './mcc-catalog';

const codes = MCC_CATALOG.map((item) => item.code);

describe('MCC catalog', () => {
  it('is large enough to onboard real merchants', () =>
    expect(MCC_CATALOG.length).toBeGreaterThanOrEqual(150));

  it('has four-digit codes, as the merchant field requires', () => {
    for (const code of codes) expect(code).toMatch(/^[0-9]{4}$/);
  });

  it('is sorted by code, each code once', () => {
    expect([...codes].sort()).toEqual(codes);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('has a label for every code', () => {
    for (const item of MCC_CATALOG) expect(item.label.trim().length).toBeGreaterThan(2);
  });

  it('uses only the documented values', () => {
    for (const item of MCC_CATALOG) {
      expect(['green', 'yellow', 'red']).toContain(item.risk);
      expect(['required', 'not_required']).toContain(item.baa_requirement);
    }
  });

  it.each([
    ['risk red', RED_RISK_MCCS],
    ['risk yellow', YELLOW_RISK_MCCS],
    ['BAA required', BAA_REQUIRED_MCCS],
  ])('names only catalog codes under %s', (_, list) => {
    for (const code of list) expect(codes).toContain(code);
  });

  it('never rates a code both red and yellow', () =>
    expect(RED_RISK_MCCS.filter((code) => YELLOW_RISK_MCCS.includes(code))).toEqual([]));

  it('covers every area partners onboard', () => {
    const ranges: [string, string, string][] = [
      ['contractors', '1500', '1799'],
      ['transport and travel', '4000', '4799'],
      ['retail', '5200', '5999'],
      ['restaurants', '5811', '5814'],
      ['digital goods', '5815', '5818'],
      ['financial', '6000', '6999'],
      ['lodging and personal services', '7000', '7299'],
      ['business services', '7300', '7399'],
      ['gambling', '7800', '7802'],
      ['healthcare', '8000', '8099'],
      ['professional and education', '8100', '8999'],
      ['government', '9000', '9499'],
    ];
    for (const [, from, to] of ranges) expect(codes.some((c) => c >= from && c <= to)).toBe(true);
  });

  it.each([
    ['5812', 'Eating Places and Restaurants', 'green', 'not_required'],
    ['5814', 'Fast Food Restaurants', 'green', 'not_required'],
    ['5411', 'Grocery Stores and Supermarkets', 'green', 'not_required'],
    ['8011', 'Doctors and Physicians (Not Elsewhere Classified)', 'green', 'required'],
    ['8021', 'Dentists and Orthodontists', 'green', 'required'],
    ['8062', 'Hospitals', 'green', 'required'],
    ['5047', 'Medical, Dental, Ophthalmic and Hospital Equipment and Supplies', 'green', 'not_required'],
    ['5912', 'Drug Stores and Pharmacies', 'yellow', 'required'],
    ['4722', 'Travel Agencies and Tour Operators', 'yellow', 'not_required'],
    ['5962', 'Direct Marketing – Travel-Related Arrangement Services', 'yellow', 'not_required'],
    ['5967', 'Direct Marketing – Inbound Teleservices Merchants', 'red', 'not_required'],
    ['7995', expect.stringContaining('Betting'), 'red', 'not_required'],
    ['4829', 'Wire Transfers and Money Orders', 'red', 'not_required'],
    ['5816', 'Digital Goods – Games', 'red', 'not_required'],
    ['9311', 'Tax Payments', 'green', 'not_required'],
  ])('%s is %s, risk %s, BAA %s', (code, label, risk, baa_requirement) =>
    expect(findMcc(code)).toEqual({ code, label, risk, baa_requirement }),
  );

  it.each(['5966', '5993', '6051', '7801'])('%s is red', (code) => expect(findMcc(code)?.risk).toBe('red'));

  it.each(['8031', '8041', '8042', '8043', '8049', '8050', '8071', '8099'])('%s requires a BAA', (code) =>
    expect(findMcc(code)?.baa_requirement).toBe('required'),
  );

  it('finds nothing under a code it does not list', () => {
    expect(findMcc('3000')).toBeUndefined(); // airline brand code, onboarded as 4511
    expect(findMcc('581')).toBeUndefined();
    expect(findMcc('')).toBeUndefined();
  });

  it('rates unlisted codes green', () => expect(mccRisk('5999')).toBe('green'));
});
