import { z } from 'zod';
import type { HppSession } from '../domain/session/session';

/**
 * The payer's form fields, spelled as CONTRACT §4 posts them. The page and the parser both read
 * this list, so a field cannot be rendered under one name and parsed under another.
 */
export const CARD_FIELDS = ['card_number', 'exp_month', 'exp_year', 'cvc', 'postal_code'] as const;
export const ACH_FIELDS = ['routing_number', 'account_number', 'account_type', 'name_on_account'] as const;
export const AMOUNT_FIELD = 'amount';
export const CSRF_FIELD = 'csrf_token';

/** The payer's form as the page posts it (`application/x-www-form-urlencoded`), every value a string. */
export const PayerFormSchema = z
  .strictObject({
    [CSRF_FIELD]: z.string(),
    ...Object.fromEntries([...CARD_FIELDS, ...ACH_FIELDS].map((field) => [field, z.string().optional()])),
    amount: z.string().optional().meta({ description: 'When the page’s amount_mode is customer_entered.' }),
  })
  .meta({
    id: 'PayerForm',
    description: 'Card fields on a card page, ACH fields on an ACH page; `csrf_token` is the form’s own.',
  });

export type CardField = (typeof CARD_FIELDS)[number];
export type AchField = (typeof ACH_FIELDS)[number];
export type PayerField = CardField | AchField | typeof AMOUNT_FIELD;

export const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/**
 * Never written back into a re-rendered page: a page served after an error may sit in a browser
 * cache, a proxy log or a screenshot, and these are the values that must never be there.
 */
export const NEVER_REFILLED: ReadonlySet<string> = new Set(['card_number', 'cvc', 'account_number']);

/** The key of errors that belong to no field (unexpected fields in the post). */
export const FORM_ERROR_KEY = '_form';

/** What the form depends on: method and whether the payer types the amount. */
export type FormSession = Pick<HppSession, 'paymentMethod' | 'amountMode' | 'currency'>;

/** The payer fields of a session, in page order (the amount comes first). */
export function payerFields(session: Pick<FormSession, 'paymentMethod' | 'amountMode'>): PayerField[] {
  const method: PayerField[] = session.paymentMethod === 'ach' ? [...ACH_FIELDS] : [...CARD_FIELDS];
  return session.amountMode === 'customer_entered' ? [AMOUNT_FIELD, ...method] : method;
}
