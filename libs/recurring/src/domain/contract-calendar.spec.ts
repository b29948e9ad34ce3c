import {
  addMonths,
  CONTRACT_FREQUENCIES,
  firstPeriodOnOrAfter,
  isCalendarDate,
  lastPeriodOnOrBefore,
  periodDate,
  periodsThrough,
  type Cadence,
  type ContractFrequency,
} from './contract-calendar';

const dates = (anchor: string, frequency: ContractFrequency, count: number, interval = 1) =>
  Array.from({ length: count }, (_, p) => periodDate(anchor, { frequency, interval }, p));

describe('the contract calendar (docs/recurring.md "Calendar")', () => {
  describe('every frequency, from its anchor', () => {
    it('DAILY steps one day, across month and year ends', () =>
      expect(dates('2026-12-30', 'DAILY', 4)).toEqual([
        '2026-12-30',
        '2026-12-31',
        '2027-01-01',
        '2027-01-02',
      ]));
    it('WEEKLY steps seven days', () =>
      expect(dates('2026-02-22', 'WEEKLY', 3)).toEqual(['2026-02-22', '2026-03-01', '2026-03-08']));
    it('BIWEEKLY steps fourteen days', () =>
      expect(dates('2026-12-25', 'BIWEEKLY', 3)).toEqual(['2026-12-25', '2027-01-08', '2027-01-22']));
    it('MONTHLY started 31 January charges 28 February, then 31 March (the anchor keeps its day)', () =>
      expect(dates('2027-01-31', 'MONTHLY', 5)).toEqual([
        '2027-01-31',
        '2027-02-28',
        '2027-03-31',
        '2027-04-30',
        '2027-05-31',
      ]));
    it('MONTHLY started 31 January of a leap year charges 29 February', () =>
      expect(dates('2028-01-31', 'MONTHLY', 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']));
    it('QUARTERLY steps three months, month ends clamped', () =>
      expect(dates('2026-11-30', 'QUARTERLY', 4)).toEqual([
        '2026-11-30',
        '2027-02-28',
        '2027-05-30',
        '2027-08-30',
      ]));
    it('ANNUALLY started 29 February falls on 28 February, and on 29 February in leap years', () =>
      expect(dates('2028-02-29', 'ANNUALLY', 5)).toEqual([
        '2028-02-29',
        '2029-02-28',
        '2030-02-28',
        '2031-02-28',
        '2032-02-29',
      ]));
    it('covers every frequency CONTRACT §8 names', () =>
      expect([...CONTRACT_FREQUENCIES]).toEqual([
        'DAILY',
        'WEEKLY',
        'BIWEEKLY',
        'MONTHLY',
        'QUARTERLY',
        'ANNUALLY',
      ]));
  });

  describe('interval multiplies the period', () => {
    it.each<[ContractFrequency, number, string[]]>([
      ['DAILY', 3, ['2026-12-01', '2026-12-04', '2026-12-07']],
      ['WEEKLY', 2, ['2026-12-01', '2026-12-15', '2026-12-29']],
      ['BIWEEKLY', 2, ['2026-12-01', '2026-12-29', '2027-01-26']],
      ['MONTHLY', 2, ['2027-01-31', '2027-03-31', '2027-05-31']],
      ['QUARTERLY', 2, ['2026-12-01', '2027-06-01', '2027-12-01']],
      ['ANNUALLY', 3, ['2026-12-01', '2029-12-01', '2032-12-01']],
    ])('%s every %d', (frequency, interval, expected) =>
      expect(dates(expected[0], frequency, 3, interval)).toEqual(expected),
    );
    it('WEEKLY every 2 is BIWEEKLY', () =>
      expect(dates('2026-12-01', 'WEEKLY', 6, 2)).toEqual(dates('2026-12-01', 'BIWEEKLY', 6)));
  });

  describe('finding periods', () => {
    const monthly: Cadence = { frequency: 'MONTHLY', interval: 1 };
    it('the last period on or before a date', () => {
      expect(lastPeriodOnOrBefore('2027-01-31', monthly, '2027-01-30')).toBe(-1);
      expect(lastPeriodOnOrBefore('2027-01-31', monthly, '2027-01-31')).toBe(0);
      expect(lastPeriodOnOrBefore('2027-01-31', monthly, '2027-02-27')).toBe(0);
      expect(lastPeriodOnOrBefore('2027-01-31', monthly, '2027-02-28')).toBe(1);
      expect(lastPeriodOnOrBefore('2027-01-31', monthly, '2027-03-30')).toBe(1);
    });
    it('the first period on or after a date', () => {
      expect(firstPeriodOnOrAfter('2027-01-31', monthly, '2027-01-31')).toBe(0);
      expect(firstPeriodOnOrAfter('2027-01-31', monthly, '2027-02-01')).toBe(1);
      expect(firstPeriodOnOrAfter('2027-01-31', monthly, '2027-03-01')).toBe(2);
    });
    it('periods through an end date, from a period on', () => {
      expect(periodsThrough('2027-01-31', monthly, 0, '2027-04-30')).toBe(4);
      expect(periodsThrough('2027-01-31', monthly, 3, '2027-04-30')).toBe(1);
      expect(periodsThrough('2027-01-31', monthly, 4, '2027-04-30')).toBe(0);
      expect(periodsThrough('2027-01-31', monthly, 0, '2027-01-30')).toBe(0);
    });
    it('agree with walking the periods one by one, for every frequency and many anchors', () => {
      const anchors = ['2026-01-31', '2026-02-28', '2027-12-31', '2028-02-29', '2026-06-15'];
      for (const frequency of CONTRACT_FREQUENCIES) {
        for (const interval of [1, 2, 5]) {
          for (const anchor of anchors) {
            const cadence = { frequency, interval };
            const walk = dates(anchor, frequency, 60, interval);
            for (const probe of ['2026-03-01', '2027-07-31', '2029-02-28', '2031-12-31']) {
              const expected = walk.filter((d) => d <= probe).length - 1;
              if (expected === walk.length - 1) continue; // beyond the walk
              expect(lastPeriodOnOrBefore(anchor, cadence, probe)).toBe(expected);
            }
          }
        }
      }
    });
  });

  it('adds months on the day or the month end', () => {
    expect(addMonths('2027-03-31', -1)).toBe('2027-02-28');
    expect(addMonths('2027-12-15', 1)).toBe('2028-01-15');
  });

  it.each([
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['2026-04-31', false],
    ['2026-04-30', true],
    ['20260430', false],
  ])('%s is a calendar date: %s', (value, expected) => expect(isCalendarDate(value)).toBe(expected));
});
