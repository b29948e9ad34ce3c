import { isCalendarDate } from '../../../platform/src/validation/calendar-date';

/**
 * The calendar of a recurring contract (docs/recurring.md "Calendar"). Dates are `YYYY-MM-DD`
 * in UTC; a contract's schedule is a list of periods counted from an anchor date (its
 * `start_date`, or the date a PATCH of `next_charge_date` moved it to):
 *
 * - period `p` falls on anchor + p × interval × the frequency's step, computed from the anchor
 *   every time (never from the previous period), so a month-end anchor keeps its day: a monthly
 *   contract anchored on 31 January falls on 28 (or 29) February, then 31 March, 30 April;
 * - DAILY, WEEKLY and BIWEEKLY step 1, 7 and 14 days; MONTHLY, QUARTERLY and ANNUALLY step 1, 3
 *   and 12 months, on the anchor's day of the month, or the month's last day when it is shorter
 *   (an annual contract anchored on 29 February falls on 28 February in other years);
 * - `interval` multiplies the step (MONTHLY with interval 2: every two months).
 */
export const CONTRACT_FREQUENCIES = [
  'DAILY',
  'WEEKLY',
  'BIWEEKLY',
  'MONTHLY',
  'QUARTERLY',
  'ANNUALLY',
] as const;
export type ContractFrequency = (typeof CONTRACT_FREQUENCIES)[number];

export const isContractFrequency = (value: unknown): value is ContractFrequency =>
  typeof value === 'string' && (CONTRACT_FREQUENCIES as readonly string[]).includes(value);

/** One step of each frequency. */
export const FREQUENCY_STEPS: Readonly<Record<ContractFrequency, { unit: 'day' | 'month'; count: number }>> =
  {
    DAILY: { unit: 'day', count: 1 },
    WEEKLY: { unit: 'day', count: 7 },
    BIWEEKLY: { unit: 'day', count: 14 },
    MONTHLY: { unit: 'month', count: 1 },
    QUARTERLY: { unit: 'month', count: 3 },
    ANNUALLY: { unit: 'month', count: 12 },
  };

/** The largest `interval` a contract takes (it multiplies the step). */
export const MAX_CONTRACT_INTERVAL = 366;

export interface Cadence {
  frequency: ContractFrequency;
  interval: number;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export { isCalendarDate };

/** The UTC date of an instant. */
export function dateOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function parts(date: string): [number, number, number] {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function format(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function epochDay(date: string): number {
  const [year, month, day] = parts(date);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function addDays(date: string, days: number): string {
  return format((epochDay(date) + days) * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from);
}

/** `months` calendar months after `date`, on its day or the target month's last day. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = parts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth));
  return format(Date.UTC(targetYear, targetMonth - 1, targetDay));
}

/** The date of period `period` (0: the anchor itself). */
export function periodDate(anchor: string, cadence: Cadence, period: number): string {
  if (!Number.isInteger(period) || period < 0) throw new RangeError(`not a period: ${period}`);
  const step = FREQUENCY_STEPS[cadence.frequency];
  const count = step.count * cadence.interval * period;
  return step.unit === 'day' ? addDays(anchor, count) : addMonths(anchor, count);
}

/** The last period falling on or before `date`; -1 when even the anchor is later. */
export function lastPeriodOnOrBefore(anchor: string, cadence: Cadence, date: string): number {
  if (date < anchor) return -1;
  const step = FREQUENCY_STEPS[cadence.frequency];
  const approximateDays = step.count * cadence.interval * (step.unit === 'day' ? 1 : 30.436875);
  // An estimate within a period or two, then corrected: period dates only ever increase.
  let period = Math.max(0, Math.floor(daysBetween(anchor, date) / approximateDays) - 1);
  while (periodDate(anchor, cadence, period + 1) <= date) period += 1;
  while (period > 0 && periodDate(anchor, cadence, period) > date) period -= 1;
  return period;
}

/** The first period falling on or after `date`. */
export function firstPeriodOnOrAfter(anchor: string, cadence: Cadence, date: string): number {
  return lastPeriodOnOrBefore(anchor, cadence, addDays(date, -1)) + 1;
}

/** How many periods from `fromPeriod` on fall on or before `endDate`. */
export function periodsThrough(
  anchor: string,
  cadence: Cadence,
  fromPeriod: number,
  endDate: string,
): number {
  return Math.max(0, lastPeriodOnOrBefore(anchor, cadence, endDate) - fromPeriod + 1);
}
