import type { Appearance } from '../../../page-config/src';
import { attributes, httpUrl, text } from './html';
import { renderDocument } from './layout';
import { displayMoney } from './money';

export const RESULT_OUTCOMES = [
  'approved',
  'declined',
  'saved',
  'expired',
  'cancelled',
  'locked',
  'already_completed',
  'not_found',
] as const;
export type ResultOutcome = (typeof RESULT_OUTCOMES)[number];

/** Compatible with the session's card summary (brand as the gateway spells it, e.g. VISA). */
export interface ResultCard {
  brand: string;
  last4: string;
}

export interface ResultBank {
  accountLast4: string;
  accountType?: string | null;
}

interface ResultCommon {
  /** null when unknown (not_found). */
  merchantName?: string | null;
  /** The merchant's appearance; the platform default when unknown. */
  appearance?: Appearance | null;
  styleNonce: string;
}

export type ResultPageInput = ResultCommon &
  (
    | {
        outcome: 'approved';
        /** The total charged, minor units. */
        amountMinor: bigint | string;
        currency: string;
        card?: ResultCard | null;
        bank?: ResultBank | null;
        transactionReference: string;
        /** The payment also saved the card or account. */
        saved?: boolean;
      }
    | {
        outcome: 'declined';
        /** The gateway's `decline_code`; only a payer-safe sentence derived from it is shown. */
        declineCode?: string | null;
        /** Where the payer can try again (the session's hpp_url) while the session is still open. */
        retryUrl?: string | null;
      }
    | { outcome: 'saved'; card?: ResultCard | null; bank?: ResultBank | null }
    | { outcome: 'expired' | 'cancelled' | 'locked' | 'already_completed' | 'not_found' }
  );

/**
 * What a payer is told about a decline. Only these three reasons are named: they tell the payer
 * what to do and reveal nothing a card tester could use (no "invalid number", no fraud signals).
 */
export const DECLINE_MESSAGES: Readonly<
  Record<'insufficient_funds' | 'card_declined' | 'expired_card' | 'generic', string>
> = {
  insufficient_funds: 'There are not enough funds available. Try another card or account.',
  card_declined: 'Your card issuer declined the payment. Contact them, or try another card.',
  expired_card: 'The card has expired. Try another card.',
  generic: 'The payment could not be completed. Try another card or payment method.',
};

export function declineMessage(code: string | null | undefined): string {
  return code === 'insufficient_funds' || code === 'card_declined' || code === 'expired_card'
    ? DECLINE_MESSAGES[code]
    : DECLINE_MESSAGES.generic;
}

const BRAND_NAMES: Readonly<Record<string, string>> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  JCB: 'JCB',
  DINERS: 'Diners Club',
  UNIONPAY: 'UnionPay',
};

/** "Visa ending in 1111", "Checking account ending in 6789". */
export function methodInWords(
  card: ResultCard | null | undefined,
  bank: ResultBank | null | undefined,
): string | null {
  if (card) {
    const brand = BRAND_NAMES[card.brand.toUpperCase()] ?? (card.brand === '' ? 'Card' : card.brand);
    return `${brand} ending in ${card.last4}`;
  }
  if (bank) {
    const type =
      bank.accountType === 'SAVINGS' ? 'Savings' : bank.accountType === 'CHECKING' ? 'Checking' : 'Bank';
    return `${type} account ending in ${bank.accountLast4}`;
  }
  return null;
}

interface ResultView {
  heading: string;
  paragraphs: string[];
  details: [string, string][];
  link?: { href: string; label: string };
}

function customLabel(input: ResultPageInput): string | null {
  const label = input.appearance?.fields?.resultScreenLabel;
  return typeof label === 'string' && label.trim() !== '' ? label : null;
}

function view(input: ResultPageInput): ResultView {
  const merchant = input.merchantName || 'the business that sent you this link';
  switch (input.outcome) {
    case 'approved': {
      const method = methodInWords(input.card, input.bank);
      return {
        heading: customLabel(input) ?? 'Payment successful',
        paragraphs: [
          `Thank you. Your payment to ${input.merchantName || 'the merchant'} has been approved.`,
          ...(input.saved ? ['Your payment details have been saved for future payments.'] : []),
        ],
        details: [
          ['Amount paid', displayMoney(input.amountMinor, input.currency)],
          ...(method ? ([['Paid with', method]] as [string, string][]) : []),
          ['Reference', input.transactionReference],
        ],
      };
    }
    case 'declined': {
      const retry = input.retryUrl ? httpUrl(input.retryUrl) : null;
      return {
        heading: 'Payment declined',
        paragraphs: [declineMessage(input.declineCode), 'No payment was taken.'],
        details: [],
        ...(retry ? { link: { href: retry, label: 'Try again' } } : {}),
      };
    }
    case 'saved': {
      const method = methodInWords(input.card, input.bank);
      return {
        heading: customLabel(input) ?? 'Payment method saved',
        paragraphs: [`Your payment method has been saved with ${merchant}. Nothing was charged.`],
        details: method ? [['Saved', method]] : [],
      };
    }
    case 'expired':
      return {
        heading: 'This payment page has expired',
        paragraphs: [`Return to ${merchant} to start again.`],
        details: [],
      };
    case 'cancelled':
      return {
        heading: 'This payment was cancelled',
        paragraphs: [`Contact ${merchant} if you still want to pay.`],
        details: [],
      };
    case 'locked':
      return {
        heading: 'Too many attempts',
        paragraphs: [
          'For your security, this payment page is locked after too many unsuccessful attempts.',
          `Contact ${merchant} for a new payment link.`,
        ],
        details: [],
      };
    case 'already_completed':
      return {
        heading: 'This payment page has already been used',
        paragraphs: [
          `It cannot be used again. Contact ${merchant} if you are unsure whether it went through.`,
        ],
        details: [],
      };
    case 'not_found':
      return {
        heading: 'Payment page not found',
        paragraphs: ['Check the link, or contact the business that sent it to you.'],
        details: [],
      };
  }
}

/** The page a payer lands on after the form, or instead of it when the session cannot be used. */
export function renderResultPage(input: ResultPageInput): string {
  const v = view(input);
  const details =
    v.details.length === 0
      ? ''
      : `<dl class="details">${v.details
          .map(([label, value]) => `<div class="line"><dt>${text(label)}</dt><dd>${text(value)}</dd></div>`)
          .join('')}</dl>`;
  const link = v.link
    ? `<a${attributes({ class: 'button', href: v.link.href })}>${text(v.link.label)}</a>`
    : '';
  const content = [
    `<h1>${text(v.heading)}</h1>`,
    ...v.paragraphs.map((p) => `<p>${text(p)}</p>`),
    details,
    link,
  ];
  return renderDocument({
    title: input.merchantName ? `${v.heading} – ${input.merchantName}` : v.heading,
    appearance: input.appearance,
    styleNonce: input.styleNonce,
    merchantName: input.merchantName ?? null,
    mainAttributes: { 'data-outcome': input.outcome },
    content: content.filter((part) => part !== '').join('\n'),
  });
}
