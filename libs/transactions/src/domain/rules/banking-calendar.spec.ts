import {
  achReversalDeadline,
  addBankingDays,
  bankingDaysBetween,
  fedHolidays,
  isBankingDay,
  isFedHoliday,
  isWithinAchReversalWindow,
  nextBankingDayOnOrAfter,
} from './banking-calendar';

describe('Federal Reserve holidays', () => {
  it('computes the 2026 calendar as the Fed publishes it', () => {
    expect(fedHolidays(2026).map((h) => [h.date, h.observed])).toEqual([
      ['2026-01-01', '2026-01-01'],
      ['2026-01-19', '2026-01-19'],
      ['2026-02-16', '2026-02-16'],
      ['2026-05-25', '2026-05-25'],
      ['2026-06-19', '2026-06-19'],
      ['2026-07-04', null],
      ['2026-09-07', '2026-09-07'],
      ['2026-10-12', '2026-10-12'],
      ['2026-11-11', '2026-11-11'],
      ['2026-11-26', '2026-11-26'],
      ['2026-12-25', '2026-12-25'],
    ]);
  });

  it.each([
    ['2026-11-26', 'Thanksgiving, 4th Thursday of November'],
    ['2026-12-25', 'Christmas on a Friday'],
    ['2027-01-18', 'MLK Day, 3rd Monday of January'],
    ['2027-07-05', 'Independence Day on a Sunday, observed Monday'],
    ['2022-06-20', 'Juneteenth 2022 on a Sunday, observed Monday'],
    ['2023-01-02', "New Year's Day 2023 on a Sunday, observed Monday"],
    ['1990-05-28', 'Memorial Day 1990, last Monday of May'],
  ])('%s is closed (%s)', (date) => {
    expect(isFedHoliday(date)).toBe(true);
    expect(isBankingDay(date)).toBe(false);
  });

  it('keeps the Fed open on the Friday before a Saturday holiday', () => {
    expect(isFedHoliday('2026-07-04')).toBe(true);
    expect(isFedHoliday('2026-07-03')).toBe(false);
    expect(isBankingDay('2026-07-03')).toBe(true);
    expect(isBankingDay('2021-12-31')).toBe(true); // New Year's Day 2022 was a Saturday
    expect(isBankingDay('2028-11-10')).toBe(true); // Veterans Day 2028 is a Saturday
  });

  it('counts the Sunday holiday itself as a holiday too', () => {
    expect(isFedHoliday('2027-07-04')).toBe(true);
    expect(isBankingDay('2027-07-06')).toBe(true);
  });

  it('observes Juneteenth only from 2022', () => {
    expect(isFedHoliday('2021-06-19')).toBe(false);
    expect(isBankingDay('2021-06-18')).toBe(true);
    expect(fedHolidays(2021).some((h) => h.name.startsWith('Juneteenth'))).toBe(false);
    expect(isFedHoliday('2022-06-19')).toBe(true);
    expect(isFedHoliday('2023-06-19')).toBe(true);
  });

  it('knows weekdays that are not holidays and weekends', () => {
    expect(isBankingDay('2026-11-27')).toBe(true); // day after Thanksgiving
    expect(isBankingDay('2026-11-28')).toBe(false); // Saturday
    expect(isBankingDay('2026-11-29')).toBe(false); // Sunday
    expect(isFedHoliday('2026-11-28')).toBe(false);
  });

  it('has 251 banking days in 2026', () => {
    expect(bankingDaysBetween('2025-12-31', '2026-12-31')).toBe(251);
  });

  it.each(['1989-12-31', '2101-01-01', '2026-02-30', '2026-2-3', '2026-02-03T00:00:00Z', ''])(
    'refuses %p',
    (date) => {
      expect(() => isBankingDay(date)).toThrow(RangeError);
    },
  );

  it('refuses years outside 1990–2100', () => {
    expect(() => fedHolidays(1989)).toThrow(RangeError);
    expect(fedHolidays(2100)).toHaveLength(11);
    expect(() => addBankingDays('2100-12-31', 1)).toThrow(RangeError);
  });
});

describe('banking-day arithmetic', () => {
  it('adds banking days across a weekend and a holiday', () => {
    expect(addBankingDays('2026-11-25', 1)).toBe('2026-11-27');
    expect(addBankingDays('2026-11-27', 1)).toBe('2026-11-30');
    expect(addBankingDays('2026-11-28', 1)).toBe('2026-11-30');
    expect(addBankingDays('2026-11-30', -2)).toBe('2026-11-25');
    expect(addBankingDays('2026-11-28', 0)).toBe('2026-11-28');
    expect(() => addBankingDays('2026-11-28', 1.5)).toThrow(RangeError);
  });

  it('counts banking days after from up to and including to', () => {
    expect(bankingDaysBetween('2026-11-25', '2026-11-30')).toBe(2);
    expect(bankingDaysBetween('2026-11-30', '2026-11-25')).toBe(-2);
    expect(bankingDaysBetween('2026-11-25', '2026-11-25')).toBe(0);
    expect(bankingDaysBetween('2026-11-26', '2026-11-27')).toBe(1);
  });

  it('finds the next banking day on or after a date', () => {
    expect(nextBankingDayOnOrAfter('2026-11-25')).toBe('2026-11-25');
    expect(nextBankingDayOnOrAfter('2026-11-26')).toBe('2026-11-27');
    expect(nextBankingDayOnOrAfter('2027-07-03')).toBe('2027-07-06');
  });
});

describe('ACH reversal window', () => {
  it('ends at the close of the 5th banking day, across a weekend', () => {
    // Thursday: Fri 6, Mon 9, Tue 10, Wed 11, Thu 12.
    const settledAt = new Date('2026-03-05T15:00:00Z');
    expect(achReversalDeadline(settledAt)).toEqual(new Date('2026-03-12T23:59:59.999Z'));
    expect(isWithinAchReversalWindow(settledAt, new Date('2026-03-12T23:59:59.999Z'))).toBe(true);
    expect(isWithinAchReversalWindow(settledAt, new Date('2026-03-13T00:00:00.000Z'))).toBe(false);
  });

  it('skips Thanksgiving', () => {
    // Monday: Tue 24, Wed 25, (Thu 26 closed), Fri 27, Mon 30, Tue Dec 1.
    const settledAt = new Date('2026-11-23T21:00:00Z');
    expect(achReversalDeadline(settledAt)).toEqual(new Date('2026-12-01T23:59:59.999Z'));
    expect(isWithinAchReversalWindow(settledAt, new Date('2026-11-30T12:00:00Z'))).toBe(true);
    expect(isWithinAchReversalWindow(settledAt, new Date('2026-12-02T00:00:00Z'))).toBe(false);
  });

  it('counts from the next banking day when settled on a weekend', () => {
    expect(achReversalDeadline(new Date('2026-03-07T10:00:00Z'))).toEqual(
      new Date('2026-03-13T23:59:59.999Z'),
    );
  });

  it('takes the UTC calendar date of settlement', () => {
    // 23:30 in New York on Thursday 5 March is Friday 6 March in UTC.
    const settledAt = new Date('2026-03-06T04:30:00Z');
    expect(achReversalDeadline(settledAt)).toEqual(new Date('2026-03-13T23:59:59.999Z'));
  });

  it('treats a now before settlement as inside the window', () => {
    const settledAt = new Date('2026-03-05T15:00:00Z');
    expect(isWithinAchReversalWindow(settledAt, new Date('2026-03-05T14:00:00Z'))).toBe(true);
  });

  it('refuses invalid instants', () => {
    expect(() => achReversalDeadline(new Date('nope'))).toThrow(RangeError);
    expect(() => isWithinAchReversalWindow(new Date('2026-03-05T15:00:00Z'), new Date(Number.NaN))).toThrow(
      RangeError,
    );
  });
});
