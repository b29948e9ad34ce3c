import { DEFAULT_APPEARANCE } from '../../../page-config/src/appearance';
import {
  declineMessage,
  methodInWords,
  renderResultPage,
  RESULT_OUTCOMES,
  type ResultPageInput,
} from './result-page';
import { appearanceWith, NONCE } from './testing/fixtures';
import { inner, tags, visibleText } from './testing/html';

const common = { merchantName: 'Acme Widgets', appearance: DEFAULT_APPEARANCE, styleNonce: NONCE };

const EXAMPLES: Record<(typeof RESULT_OUTCOMES)[number], ResultPageInput> = {
  approved: {
    ...common,
    outcome: 'approved',
    amountMinor: '1050',
    currency: 'USD',
    card: { brand: 'VISA', last4: '1111' },
    transactionReference: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  },
  declined: { ...common, outcome: 'declined', declineCode: 'insufficient_funds' },
  saved: { ...common, outcome: 'saved', card: { brand: 'MASTERCARD', last4: '4444' } },
  expired: { ...common, outcome: 'expired' },
  cancelled: { ...common, outcome: 'cancelled' },
  locked: { ...common, outcome: 'locked' },
  already_completed: { ...common, outcome: 'already_completed' },
  not_found: { outcome: 'not_found', styleNonce: NONCE },
};

describe('renderResultPage: every outcome', () => {
  it.each(RESULT_OUTCOMES)('%s is a full page with one h1, a title and data-outcome on main', (outcome) => {
    const html = renderResultPage(EXAMPLES[outcome]);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(tags(html, 'main')).toEqual([{ 'data-outcome': outcome }]);
    expect(tags(html, 'h1')).toHaveLength(1);
    expect(inner(html, 'title').length).toBeGreaterThan(0);
    expect(tags(html, 'style')).toEqual([{ nonce: NONCE }]);
    expect(html).not.toMatch(/<script|\son[a-z]+=|javascript:|<link/i);
  });

  it('gives each outcome its own heading', () => {
    const headings = RESULT_OUTCOMES.map((outcome) => inner(renderResultPage(EXAMPLES[outcome]), 'h1'));
    expect(new Set(headings).size).toBe(RESULT_OUTCOMES.length);
  });
});

describe('renderResultPage: approved', () => {
  it('shows the amount, the card and the reference', () => {
    const html = renderResultPage(EXAMPLES.approved);
    expect(inner(html, 'h1')).toBe('Payment successful');
    const text = visibleText(html);
    expect(text).toContain('Amount paid $10.50');
    expect(text).toContain('Paid with Visa ending in 1111');
    expect(text).toContain('Reference 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
  });

  it('shows the bank account of an ACH payment and whether it was saved', () => {
    const html = renderResultPage({
      ...common,
      outcome: 'approved',
      amountMinor: 2500n,
      currency: 'USD',
      bank: { accountLast4: '6789', accountType: 'CHECKING' },
      transactionReference: 'ref-1',
      saved: true,
    });
    const text = visibleText(html);
    expect(text).toContain('Paid with Checking account ending in 6789');
    expect(text).toContain('$25.00');
    expect(text).toContain('saved for future payments');
  });

  it('uses resultScreenLabel as the heading when it is set', () => {
    const appearance = appearanceWith((a) => (a.fields.resultScreenLabel = 'Thanks & see you soon'));
    const html = renderResultPage({ ...EXAMPLES.approved, appearance });
    expect(inner(html, 'h1')).toBe('Thanks &amp; see you soon');
  });

  it('ignores a blank resultScreenLabel', () => {
    const appearance = appearanceWith((a) => (a.fields.resultScreenLabel = '   '));
    expect(inner(renderResultPage({ ...EXAMPLES.approved, appearance }), 'h1')).toBe('Payment successful');
  });
});

describe('renderResultPage: declined', () => {
  it.each([
    ['insufficient_funds', 'There are not enough funds available.'],
    ['card_declined', 'Your card issuer declined the payment.'],
    ['expired_card', 'The card has expired.'],
    ['invalid_card_number', 'The payment could not be completed.'],
    ['suspected_fraud', 'The payment could not be completed.'],
    [null, 'The payment could not be completed.'],
  ])('decline code %p is told as %p', (declineCode, sentence) => {
    const html = renderResultPage({ ...common, outcome: 'declined', declineCode });
    const text = visibleText(html);
    expect(text).toContain(sentence);
    expect(text).toContain('No payment was taken.');
    if (declineCode) expect(html).not.toContain(declineCode);
  });

  it('links back to the form when a retry URL is given', () => {
    const html = renderResultPage({
      ...common,
      outcome: 'declined',
      retryUrl: 'https://pay.example.test/hpp/1',
    });
    expect(tags(html, 'a')).toEqual([{ class: 'button', href: 'https://pay.example.test/hpp/1' }]);
    expect(inner(html, 'a')).toBe('Try again');
  });

  it('drops a retry URL that is not http(s)', () => {
    const html = renderResultPage({ ...common, outcome: 'declined', retryUrl: 'javascript:alert(1)' });
    expect(tags(html, 'a')).toHaveLength(0);
    expect(html).not.toContain('javascript:');
  });
});

describe('renderResultPage: other outcomes', () => {
  it('saved names the saved card and uses resultScreenLabel', () => {
    const appearance = appearanceWith((a) => (a.fields.resultScreenLabel = 'All set'));
    const html = renderResultPage({ ...EXAMPLES.saved, appearance });
    expect(inner(html, 'h1')).toBe('All set');
    expect(visibleText(html)).toContain('Saved Mastercard ending in 4444');
    expect(visibleText(html)).toContain('Nothing was charged.');
  });

  it('resultScreenLabel does not replace the heading of a failure', () => {
    const appearance = appearanceWith((a) => (a.fields.resultScreenLabel = 'All set'));
    expect(inner(renderResultPage({ ...EXAMPLES.declined, appearance }), 'h1')).toBe('Payment declined');
    expect(inner(renderResultPage({ ...EXAMPLES.locked, appearance }), 'h1')).toBe('Too many attempts');
  });

  it('locked tells the payer why and what to do', () => {
    const text = visibleText(renderResultPage(EXAMPLES.locked));
    expect(text).toContain('too many unsuccessful attempts');
    expect(text).toContain('Contact Acme Widgets for a new payment link.');
  });

  it('not_found without a merchant has no header bar and the default styling', () => {
    const html = renderResultPage(EXAMPLES.not_found);
    expect(html).not.toContain('<header');
    expect(inner(html, 'style')).toContain(`background:${DEFAULT_APPEARANCE.page.bg}`);
    expect(inner(html, 'title')).toBe('Payment page not found');
  });

  it('escapes the merchant name', () => {
    const html = renderResultPage({ ...EXAMPLES.expired, merchantName: '<script>alert(1)</script>' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('Return to &lt;script&gt;alert(1)&lt;/script&gt; to start again.');
  });

  it('uses the merchant appearance', () => {
    const appearance = appearanceWith((a) => (a.page.bg = '#fafafa'));
    expect(inner(renderResultPage({ ...EXAMPLES.cancelled, appearance }), 'style')).toContain(
      'background:#fafafa',
    );
  });
});

describe('helpers', () => {
  it('declineMessage names only the three payer-actionable reasons', () => {
    expect(declineMessage('card_declined')).not.toBe(declineMessage(undefined));
    expect(declineMessage('invalid_routing_number')).toBe(declineMessage(null));
  });

  it('methodInWords spells brands and account types', () => {
    expect(methodInWords({ brand: 'AMEX', last4: '0005' }, null)).toBe('American Express ending in 0005');
    expect(methodInWords({ brand: 'visa', last4: '4242' }, null)).toBe('Visa ending in 4242');
    expect(methodInWords(null, { accountLast4: '1234', accountType: 'SAVINGS' })).toBe(
      'Savings account ending in 1234',
    );
    expect(methodInWords(null, null)).toBeNull();
  });
});
