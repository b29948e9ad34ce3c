/**
 * Banking days on the US Federal Reserve calendar, computed from the holiday rules rather than
 * read from a list, for any date in 1990–2100 (outside that range a RangeError: the rules have
 * changed before and will again, and a wrong answer about money movement is worse than none).
 *
 * Dates are UTC calendar dates written `YYYY-MM-DD` (ISO 8601). A plain string was chosen over
 * a Date at UTC midnight because it cannot carry a time of day or a zone by accident, compares
 * correctly as text, and is what the spec's events and responses already show. Only
 * `achReversalDeadline` and `isWithinAchReversalWindow` take instants, because settlement is one;
 * its calendar date is the UTC date of that instant.
 *
 * Federal Reserve observance rule: a holiday on a Sunday is observed on the Monday after, but a
 * holiday on a Saturday is NOT moved to the Friday before. The Reserve Banks stay open and settle
 * that Friday (only the Board closes), so the Friday is a banking day. This differs from the
 * federal-employee rule (5 U.S.C. 6103), which would close the Friday.
 */
export type IsoDate = string;

export const CALENDAR_FIRST_YEAR = 1990;
export const CALENDAR_LAST_YEAR = 2100;
/** Nacha: a reversing entry must reach the RDFI within five banking days after settlement. */
export const ACH_REVERSAL_BANKING_DAYS = 5;

export interface FedHoliday {
  readonly name: string;
  /** The holiday itself, which may fall on a weekend. */
  readonly date: IsoDate;
  /** The weekday the Fed is closed for it: the date, the Monday after a Sunday, null for a Saturday. */
  readonly observed: IsoDate | null;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;

/** Days since 1970-01-01; integer arithmetic on days keeps time zones and DST out of it. */
type Day = number;

const dayOf = (year: number, month: number, dayOfMonth: number): Day =>
  Date.UTC(year, month - 1, dayOfMonth) / DAY_MS;
const isoOf = (day: Day): IsoDate => new Date(day * DAY_MS).toISOString().slice(0, 10);
const weekdayOf = (day: Day): number => new Date(day * DAY_MS).getUTCDay();
const yearOf = (day: Day): number => new Date(day * DAY_MS).getUTCFullYear();

function assertYear(year: number): void {
  if (!Number.isInteger(year) || year < CALENDAR_FIRST_YEAR || year > CALENDAR_LAST_YEAR) {
    throw new RangeError(
      `the banking calendar covers ${CALENDAR_FIRST_YEAR} to ${CALENDAR_LAST_YEAR}, not ${year}`,
    );
  }
}

function parseDate(date: IsoDate): Day {
  const match = typeof date === 'string' ? ISO_DATE.exec(date) : null;
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${String(date)}`);
  assertYear(Number(match[1]));
  const day = dayOf(Number(match[1]), Number(match[2]), Number(match[3]));
  // Date.UTC rolls 2026-02-30 over to March; a round trip catches that.
  if (isoOf(day) !== date) throw new RangeError(`no such date: ${date}`);
  return day;
}

/** The `n`th (1-based) `weekday` of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Day {
  const first = dayOf(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + 7 * (n - 1);
}

function lastWeekday(year: number, month: number, weekday: number): Day {
  const last = dayOf(year, month + 1, 0);
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

function holidayDays(year: number): { name: string; day: Day }[] {
  const fixed = (name: string, month: number, dayOfMonth: number) => ({
    name,
    day: dayOf(year, month, dayOfMonth),
  });
  return [
    fixed("New Year's Day", 1, 1),
    { name: 'Birthday of Martin Luther King, Jr.', day: nthWeekday(year, 1, MONDAY, 3) },
    { name: "Washington's Birthday", day: nthWeekday(year, 2, MONDAY, 3) },
    { name: 'Memorial Day', day: lastWeekday(year, 5, MONDAY) },
    // Enacted 17 June 2021, too late for the Reserve Banks to close that year.
    ...(year >= 2022 ? [fixed('Juneteenth National Independence Day', 6, 19)] : []),
    fixed('Independence Day', 7, 4),
    { name: 'Labor Day', day: nthWeekday(year, 9, MONDAY, 1) },
    { name: 'Columbus Day', day: nthWeekday(year, 10, MONDAY, 2) },
    fixed('Veterans Day', 11, 11),
    { name: 'Thanksgiving Day', day: nthWeekday(year, 11, THURSDAY, 4) },
    fixed('Christmas Day', 12, 25),
  ];
}

function observedDay(day: Day): Day | null {
  const weekday = weekdayOf(day);
  if (weekday === SUNDAY) return day + 1;
  return weekday === SATURDAY ? null : day;
}

/** The year's Fed holidays in calendar order. */
export function fedHolidays(year: number): FedHoliday[] {
  assertYear(year);
  return holidayDays(year).map(({ name, day }) => {
    const observed = observedDay(day);
    return { name, date: isoOf(day), observed: observed === null ? null : isoOf(observed) };
  });
}

const closedDaysByYear = new Map<number, ReadonlySet<Day>>();

/** The holiday dates themselves plus the Mondays that stand in for Sunday ones. */
function closedDays(year: number): ReadonlySet<Day> {
  let days = closedDaysByYear.get(year);
  if (!days) {
    assertYear(year);
    days = new Set(holidayDays(year).flatMap(({ day }) => [day, observedDay(day) ?? day]));
    closedDaysByYear.set(year, days);
  }
  return days;
}

const isHolidayDay = (day: Day): boolean => closedDays(yearOf(day)).has(day);

function isBankingDayNumber(day: Day): boolean {
  const weekday = weekdayOf(day);
  return weekday !== SATURDAY && weekday !== SUNDAY && !isHolidayDay(day);
}

/**
 * True on a Fed holiday: the holiday's own date (even on a weekend) and the Monday on which a
 * Sunday holiday is observed. The Friday before a Saturday holiday is not one.
 */
export function isFedHoliday(date: IsoDate): boolean {
  return isHolidayDay(parseDate(date));
}

/** Monday to Friday and not a Fed holiday. */
export function isBankingDay(date: IsoDate): boolean {
  return isBankingDayNumber(parseDate(date));
}

function stepBankingDays(from: Day, n: number): Day {
  let day = from;
  const step = Math.sign(n);
  for (let left = Math.abs(n); left > 0;) {
    day += step;
    if (isBankingDayNumber(day)) left -= 1;
  }
  return day;
}

/**
 * The `n`th banking day after `date` (before it when `n` is negative); `date` itself need not be
 * a banking day, and `n = 0` gives `date` back unchanged.
 */
export function addBankingDays(date: IsoDate, n: number): IsoDate {
  if (!Number.isInteger(n)) throw new RangeError(`banking days must be a whole number, not ${n}`);
  return isoOf(stepBankingDays(parseDate(date), n));
}

/**
 * How many banking days fall after `from`, up to and including `to`, so that
 * `addBankingDays(from, bankingDaysBetween(from, to))` is `to` whenever `to` is a banking day.
 * Negative when `to` is before `from` (the count of the reversed range), 0 when equal.
 */
export function bankingDaysBetween(from: IsoDate, to: IsoDate): number {
  const start = parseDate(from);
  const end = parseDate(to);
  if (end < start) return -bankingDaysBetween(to, from);
  let count = 0;
  for (let day = start + 1; day <= end; day += 1) if (isBankingDayNumber(day)) count += 1;
  return count;
}

/** `date` when it is a banking day, otherwise the first banking day after it. */
export function nextBankingDayOnOrAfter(date: IsoDate): IsoDate {
  const day = parseDate(date);
  return isBankingDayNumber(day) ? date : isoOf(stepBankingDays(day, 1));
}

function assertInstant(value: Date, name: string): number {
  const time = value instanceof Date ? value.getTime() : Number.NaN;
  if (Number.isNaN(time)) throw new RangeError(`${name} must be a valid Date`);
  return time;
}

/**
 * The last instant an ACH_REVERSAL may be accepted: the end (23:59:59.999 UTC) of the fifth
 * banking day after the UTC calendar date of settlement. Settlement on a weekend or holiday counts
 * from the next banking day, since days "after settlement" are counted only when banks are open.
 */
export function achReversalDeadline(settledAt: Date): Date {
  const settledOn = new Date(assertInstant(settledAt, 'settledAt')).toISOString().slice(0, 10);
  const lastDay = addBankingDays(settledOn, ACH_REVERSAL_BANKING_DAYS);
  return new Date(`${lastDay}T23:59:59.999Z`);
}

/**
 * Whether `now` is on or before {@link achReversalDeadline}. A `now` earlier than `settledAt`
 * (clock skew between the processor report and this service) still counts as inside the window.
 */
export function isWithinAchReversalWindow(settledAt: Date, now: Date): boolean {
  return assertInstant(now, 'now') <= achReversalDeadline(settledAt).getTime();
}
