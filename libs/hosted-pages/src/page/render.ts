import type { Appearance } from '../../../page-config/src';
import type { HppSession } from '../domain/session/session';
import type { HppRecurringPlanData } from '../domain/session/session-events';
import type { HppRecurringFrequency } from '../domain/session/session-states';
import type { UseType } from '../../../vault/src';
import {
  ACCOUNT_TYPES,
  AMOUNT_FIELD,
  CSRF_FIELD,
  NEVER_REFILLED,
  payerFields,
  type PayerField,
} from './fields';
import { attributes, httpUrl, text } from './html';
import { renderDocument } from './layout';
import { displayMoney, isNonZero } from './money';

export { renderResultPage } from './result-page';
export type { ResultOutcome, ResultPageInput } from './result-page';

/** What the page shows of a session: its method, purpose, amounts and what it saves. */
export type PageSession = Pick<
  HppSession,
  | 'paymentMethod'
  | 'pagePurpose'
  | 'amountMode'
  | 'currency'
  | 'amountMinor'
  | 'surchargeMinor'
  | 'convenienceFeeMinor'
  | 'totalMinor'
  | 'savesPaymentMethod'
  | 'credentialUsages'
  | 'recurringPlan'
>;

export interface PaymentPageInput {
  session: PageSession;
  merchantName: string;
  appearance: Appearance;
  /** The absolute `hpp_url` the form posts back to (CONTRACT §4). */
  formAction: string;
  csrfToken: string;
  styleNonce: string;
  /** What the payer typed, shown again after an error; card number, CVC and account number never are. */
  values?: Readonly<Record<string, string>>;
  /** Field name → payer-friendly message; `_form` (or any key that is not a field) goes to the summary only. */
  errors?: Readonly<Record<string, string>>;
  /** A message for the whole attempt, such as a decline, shown in the error summary. */
  pageError?: string;
}

interface FieldSpec {
  label: string;
  autocomplete: string;
  inputmode?: 'numeric' | 'decimal';
  hint?: string;
}

/**
 * Account and routing numbers have no autofill token, and `off` keeps them out of the browser's
 * form history on a shared computer.
 */
const FIELD_SPECS: Readonly<Record<Exclude<PayerField, 'account_type'>, FieldSpec>> = {
  amount: { label: 'Amount', autocomplete: 'transaction-amount', inputmode: 'decimal' },
  card_number: { label: 'Card number', autocomplete: 'cc-number', inputmode: 'numeric' },
  exp_month: { label: 'Month (MM)', autocomplete: 'cc-exp-month', inputmode: 'numeric' },
  exp_year: { label: 'Year (YYYY)', autocomplete: 'cc-exp-year', inputmode: 'numeric' },
  cvc: {
    label: 'Security code',
    autocomplete: 'cc-csc',
    inputmode: 'numeric',
    hint: '3 digits on the back of the card, or 4 on the front for American Express.',
  },
  postal_code: { label: 'Billing postal code', autocomplete: 'postal-code' },
  routing_number: {
    label: 'Routing number',
    autocomplete: 'off',
    inputmode: 'numeric',
    hint: 'The 9-digit number that identifies your bank.',
  },
  account_number: { label: 'Account number', autocomplete: 'off', inputmode: 'numeric' },
  name_on_account: { label: 'Name on the account', autocomplete: 'name' },
};

const ACCOUNT_TYPE_LABELS: Readonly<Record<(typeof ACCOUNT_TYPES)[number], string>> = {
  CHECKING: 'Checking',
  SAVINGS: 'Savings',
};

/** The payment (or save-payment-method) page. */
export function renderPaymentPage(input: PaymentPageInput): string {
  const action = httpUrl(input.formAction);
  if (!action) throw new Error('formAction must be an absolute http(s) URL');
  const form = new FormView(input);
  const saving = input.session.pagePurpose === 'save_payment_method';
  const heading = saving ? 'Save payment method' : `Pay ${input.merchantName}`;
  const title = saving ? `Save payment method – ${input.merchantName}` : `Pay ${input.merchantName}`;
  const content = [
    errorSummary(input, form),
    `<h1>${text(heading)}</h1>`,
    saving ? '<p>Nothing is charged now.</p>' : orderSummary(input.session),
    `<form method="post"${attributes({ action })}>`,
    `<input${attributes({ type: 'hidden', name: CSRF_FIELD, value: input.csrfToken })}>`,
    input.session.amountMode === 'customer_entered'
      ? form.input(AMOUNT_FIELD, amountHint(input.session))
      : '',
    input.session.paymentMethod === 'ach' ? achFields(form) : cardFields(form),
    consent(input),
    `<button type="submit">${text(buttonLabel(input.session))}</button>`,
    '</form>',
  ];
  return renderDocument({
    title: form.hasErrors() ? `Error: ${title}` : title,
    appearance: input.appearance,
    styleNonce: input.styleNonce,
    merchantName: input.merchantName,
    mainAttributes: { 'data-page': saving ? 'save_payment_method' : 'payment' },
    content: content.filter((part) => part !== '').join('\n'),
  });
}

/** One field's markup, with its value and error from the input. */
class FormView {
  private readonly fields: readonly PayerField[];

  constructor(private readonly page: PaymentPageInput) {
    this.fields = payerFields(page.session);
  }

  hasErrors(): boolean {
    return this.summaryErrors().length > 0 || Boolean(this.page.pageError);
  }

  /** Field errors in page order, then those that belong to no field on this page. */
  summaryErrors(): { field: string | null; message: string }[] {
    const errors = this.page.errors ?? {};
    const onPage = this.fields
      .filter((f) => hasOwn(errors, f))
      .map((f) => ({ field: f, message: errors[f] }));
    const other = Object.keys(errors)
      .filter((key) => !(this.fields as readonly string[]).includes(key))
      .map((key) => ({ field: null, message: errors[key] }));
    return [...onPage, ...other];
  }

  error(field: PayerField): string | null {
    const errors = this.page.errors ?? {};
    return hasOwn(errors, field) ? errors[field] : null;
  }

  value(field: PayerField): string {
    const values = this.page.values ?? {};
    return NEVER_REFILLED.has(field) || !hasOwn(values, field) ? '' : String(values[field]);
  }

  input(field: Exclude<PayerField, 'account_type'>, hint?: string): string {
    const spec = FIELD_SPECS[field];
    const parts = this.describe(field, hint ?? spec.hint);
    const control = `<input${attributes({
      id: field,
      name: field,
      type: 'text',
      inputmode: spec.inputmode,
      autocomplete: spec.autocomplete,
      // Spell-checkers may send what is typed to a remote service.
      spellcheck: 'false',
      autocapitalize: 'off',
      value: this.value(field),
      ...parts.aria,
    })}>`;
    return this.wrap(field, spec.label, parts.markup, control);
  }

  select(field: 'account_type'): string {
    const chosen = this.value(field);
    const options = [
      `<option${attributes({ value: '', selected: !(ACCOUNT_TYPES as readonly string[]).includes(chosen) })}>Choose…</option>`,
      ...ACCOUNT_TYPES.map(
        (type) =>
          `<option${attributes({ value: type, selected: chosen === type })}>${ACCOUNT_TYPE_LABELS[type]}</option>`,
      ),
    ].join('');
    const parts = this.describe(field, undefined);
    const control = `<select${attributes({ id: field, name: field, ...parts.aria })}>${options}</select>`;
    return this.wrap(field, 'Account type', parts.markup, control);
  }

  /** Hint and error text, tied to the control with aria-describedby. */
  private describe(field: PayerField, hint: string | undefined) {
    const error = this.error(field);
    const ids: string[] = [];
    let markup = '';
    if (hint) {
      ids.push(`${field}-hint`);
      markup += `<p${attributes({ class: 'hint', id: `${field}-hint` })}>${text(hint)}</p>\n`;
    }
    if (error !== null) {
      ids.push(`${field}-error`);
      markup +=
        `<p${attributes({ class: 'error-message', id: `${field}-error` })}>` +
        `<span class="visually-hidden">Error: </span>${text(error)}</p>\n`;
    }
    const aria = {
      'aria-invalid': error !== null ? 'true' : undefined,
      'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
    };
    return { markup, aria };
  }

  private wrap(field: PayerField, label: string, described: string, control: string): string {
    const cls = this.error(field) !== null ? 'field field-error' : 'field';
    return (
      `<div${attributes({ class: cls })}>\n<label${attributes({ for: field })}>${text(label)}</label>\n` +
      `${described}${control}\n</div>`
    );
  }
}

function cardFields(form: FormView): string {
  return [
    form.input('card_number'),
    '<fieldset class="field">',
    '<legend>Expiry date</legend>',
    '<div class="row">',
    form.input('exp_month'),
    form.input('exp_year'),
    '</div>',
    '</fieldset>',
    '<div class="row">',
    form.input('cvc'),
    form.input('postal_code'),
    '</div>',
  ].join('\n');
}

function achFields(form: FormView): string {
  return [
    form.input('name_on_account'),
    form.input('routing_number'),
    form.input('account_number'),
    form.select('account_type'),
  ].join('\n');
}

/**
 * At the top, so a screen reader announces it on load (role="alert") and a keyboard user reaches
 * it first; each entry links to its field.
 */
function errorSummary(input: PaymentPageInput, form: FormView): string {
  if (!form.hasErrors()) return '';
  const items = [
    ...(input.pageError ? [`<li>${text(input.pageError)}</li>`] : []),
    ...form
      .summaryErrors()
      .map(({ field, message }) =>
        field === null
          ? `<li>${text(message)}</li>`
          : `<li><a${attributes({ href: `#${field}` })}>${text(message)}</a></li>`,
      ),
  ];
  return [
    '<div class="error-summary" role="alert" aria-labelledby="error-summary-title">',
    '<h2 id="error-summary-title">There is a problem</h2>',
    `<ul>${items.join('')}</ul>`,
    '</div>',
  ].join('\n');
}

function line(label: string, value: string, cls = 'line'): string {
  return `<div${attributes({ class: cls })}><dt>${text(label)}</dt><dd>${text(value)}</dd></div>`;
}

/** Amount, fee lines when not zero, total; a customer-entered page can only say how fees work. */
function orderSummary(session: PageSession): string {
  const money = (minor: string) => displayMoney(minor, session.currency);
  const parts = [
    '<section class="summary" aria-labelledby="summary-title">',
    '<h2 id="summary-title">Summary</h2>',
  ];
  if (session.amountMode === 'customer_entered') {
    parts.push(
      '<p class="note">Enter the amount to pay. Any surcharge or convenience fee is calculated when you ' +
        'submit and added to that amount.</p>',
    );
  } else if (session.totalMinor !== null) {
    const lines: string[] = [];
    if (session.amountMinor !== null) lines.push(line('Amount', money(session.amountMinor)));
    if (isNonZero(session.surchargeMinor)) lines.push(line('Surcharge', money(session.surchargeMinor!)));
    if (isNonZero(session.convenienceFeeMinor)) {
      lines.push(line('Convenience fee', money(session.convenienceFeeMinor!)));
    }
    lines.push(line('Total', money(session.totalMinor), 'line total'));
    parts.push(`<dl>${lines.join('')}</dl>`, ...feeDisclosures(session));
  }
  if (session.recurringPlan) parts.push(recurringLine(session.recurringPlan, session.currency));
  parts.push('</section>');
  return parts.join('\n');
}

/**
 * Card rules make a surcharge a disclosed, separate line; the platform never surcharges debit or
 * prepaid cards (docs/fees.md), so the payer is told that too.
 */
function feeDisclosures(session: PageSession): string[] {
  const out: string[] = [];
  if (isNonZero(session.surchargeMinor)) {
    const amount = displayMoney(session.surchargeMinor!, session.currency);
    out.push(
      `<p class="note">A credit card surcharge of ${text(amount)} is included in the total. ` +
        'Debit and prepaid cards are not surcharged.</p>',
    );
  }
  if (isNonZero(session.convenienceFeeMinor)) {
    const amount = displayMoney(session.convenienceFeeMinor!, session.currency);
    out.push(`<p class="note">A convenience fee of ${text(amount)} is included in the total.</p>`);
  }
  return out;
}

const FREQUENCY_UNITS: Readonly<Record<HppRecurringFrequency, [number, string]>> = {
  daily: [1, 'day'],
  weekly: [1, 'week'],
  biweekly: [2, 'week'],
  monthly: [1, 'month'],
  quarterly: [3, 'month'],
  annually: [1, 'year'],
};

/** "every month", "every 2 weeks": the interval multiplies the frequency. */
export function everyPhrase(frequency: HppRecurringFrequency, interval: number): string {
  const [base, unit] = FREQUENCY_UNITS[frequency];
  const count = base * Math.max(1, Math.trunc(interval));
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

function recurringLine(plan: HppRecurringPlanData, currency: string): string {
  const amount = displayMoney(plan.recurringAmountMinor, currency);
  const length = plan.numberOfPayments === null ? 'until cancelled' : `${plan.numberOfPayments} payments`;
  return `<p class="note">Recurring payments: ${text(amount)} ${everyPhrase(plan.frequency, plan.interval)}, ${length}.</p>`;
}

function amountHint(session: PageSession): string {
  return `In ${session.currency}, for example 25.00.`;
}

function buttonLabel(session: PageSession): string {
  if (session.pagePurpose === 'save_payment_method') return 'Save payment method';
  if (session.amountMode !== 'customer_entered' && session.totalMinor !== null) {
    return `Pay ${displayMoney(session.totalMinor, session.currency)}`;
  }
  return 'Pay';
}

const USAGE_WORDS: Readonly<Record<UseType, string>> = {
  ONE_TIME_FUTURE: 'a single future payment',
  RECURRING: 'recurring payments',
  INSTALLMENT: 'instalment payments',
  UNSCHEDULED_COF: 'unscheduled payments you agree to',
};

/** "a, b and c". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The consent a stored credential needs, naming the uses the session allows; ACH debits need theirs too. */
function consent(input: PaymentPageInput): string {
  const { session } = input;
  const what = session.paymentMethod === 'ach' ? 'bank account' : 'card';
  const out: string[] = [];
  if (session.savesPaymentMethod) {
    const usages = listInWords(
      session.credentialUsages.map((usage) => USAGE_WORDS[usage] ?? 'future payments'),
    );
    out.push(
      `<p class="note">You authorise ${text(input.merchantName)} to store this ${what} for future ` +
        `payments: ${text(usages)}.</p>`,
    );
  }
  if (session.paymentMethod === 'ach' && session.pagePurpose === 'payment') {
    out.push(
      `<p class="note">By selecting ${text(buttonLabel(session))}, you authorise ` +
        `${text(input.merchantName)} to debit the total from this bank account.</p>`,
    );
  }
  return out.join('\n');
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
