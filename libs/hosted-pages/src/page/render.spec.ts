import { DEFAULT_APPEARANCE } from '../../../page-config/src/appearance';
import { parseHostedForm } from './form';
import { everyPhrase, listInWords, renderPaymentPage } from './render';
import { byId, inner, payerControls, tags, visibleText } from './testing/html';
import {
  achSession,
  appearanceWith,
  cardSession,
  customerEnteredSession,
  HPP_URL,
  NONCE,
  pageInput,
  saveCardSession,
} from './testing/fixtures';

const NOW = new Date('2026-11-01T10:00:00.000Z');
/** A 1x1 PNG. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const names = (html: string) => payerControls(html).map((attrs) => attrs.name);

describe('renderPaymentPage: the document', () => {
  const html = renderPaymentPage(pageInput());

  it('is a complete HTML5 document in English with a title, one main and one h1', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(inner(html, 'title')).toBe('Pay Acme Widgets');
    expect(tags(html, 'main')).toHaveLength(1);
    expect(tags(html, 'h1')).toHaveLength(1);
    expect(inner(html, 'h1')).toBe('Pay Acme Widgets');
  });

  it('has a viewport for phones', () => {
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('has no JavaScript: no script element, no event handler, no javascript: URL', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('loads nothing from elsewhere: no link, no external image, no style attribute', () => {
    expect(tags(html, 'link')).toHaveLength(0);
    expect(html).not.toMatch(/\ssrc="(?!data:)/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('has one style element, carrying the nonce', () => {
    expect(tags(html, 'style')).toEqual([{ nonce: NONCE }]);
  });

  it('posts to the hpp_url with the CSRF token', () => {
    expect(tags(html, 'form')).toEqual([{ method: 'post', action: HPP_URL }]);
    expect(tags(html, 'input').filter((a) => a.type === 'hidden')).toEqual([
      { type: 'hidden', name: 'csrf_token', value: 'csrf-token-value' },
    ]);
  });

  it('refuses a form action that is not an absolute http(s) URL', () => {
    expect(() => renderPaymentPage(pageInput({ formAction: 'javascript:alert(1)' }))).toThrow('formAction');
  });
});

describe('renderPaymentPage: escaping', () => {
  it('escapes a hostile merchant name everywhere it appears', () => {
    const html = renderPaymentPage(
      pageInput({
        merchantName: '<script>alert(1)</script>',
        session: saveCardSession(),
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(inner(html, 'title')).toBe('Save payment method – &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes re-filled values, messages and the CSRF token', () => {
    const html = renderPaymentPage(
      pageInput({
        csrfToken: '"><script>x</script>',
        values: { postal_code: '"><img src=x onerror=alert(1)>' },
        errors: { postal_code: '<b>bad</b>' },
        pageError: '<i>declined</i>',
      }),
    );
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(byId(html, 'postal_code')?.value).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  it('drops a hostile stylesheet value and keeps the style element closed', () => {
    const html = renderPaymentPage(
      pageInput({
        appearance: appearanceWith((a) => (a.page.bg = '#fff}</style><script>alert(1)</script>')),
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });
});

describe('renderPaymentPage: card form', () => {
  const html = renderPaymentPage(pageInput());

  it('has exactly the CONTRACT §4 card fields', () => {
    expect(names(html)).toEqual(['card_number', 'exp_month', 'exp_year', 'cvc', 'postal_code']);
  });

  it('labels every control with <label for>', () => {
    for (const control of payerControls(html)) {
      expect(control.id).toBe(control.name);
      expect(tags(html, 'label').filter((label) => label.for === control.id)).toHaveLength(1);
    }
  });

  it('gives the autofill tokens and numeric keyboards', () => {
    const by = (name: string) => payerControls(html).find((c) => c.name === name)!;
    expect(by('card_number')).toMatchObject({ autocomplete: 'cc-number', inputmode: 'numeric' });
    expect(by('exp_month')).toMatchObject({ autocomplete: 'cc-exp-month', inputmode: 'numeric' });
    expect(by('exp_year')).toMatchObject({ autocomplete: 'cc-exp-year', inputmode: 'numeric' });
    expect(by('cvc')).toMatchObject({ autocomplete: 'cc-csc', inputmode: 'numeric' });
    expect(by('postal_code')).toMatchObject({ autocomplete: 'postal-code' });
    expect(by('postal_code').inputmode).toBeUndefined();
  });

  it('links the CVC hint to its input', () => {
    expect(byId(html, 'cvc')?.['aria-describedby']).toBe('cvc-hint');
    expect(byId(html, 'cvc-hint')).toBeDefined();
  });

  it('shows no error summary and marks nothing invalid without errors', () => {
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('aria-invalid');
  });

  it('says "Pay" with the total on the button', () => {
    expect(inner(html, 'button')).toBe('Pay $10.00');
  });
});

describe('renderPaymentPage: errors', () => {
  const html = renderPaymentPage(
    pageInput({
      values: { exp_month: '13', exp_year: '2030', postal_code: '94105' },
      errors: {
        exp_month: 'Enter the expiry month as a number from 1 to 12.',
        cvc: 'Enter the 3-digit security code from the back of the card.',
        _form: 'The form contained fields this page does not use.',
      },
    }),
  );

  it('marks each field in error invalid and describes it with its message', () => {
    const month = byId(html, 'exp_month')!;
    expect(month['aria-invalid']).toBe('true');
    expect(month['aria-describedby']).toBe('exp_month-error');
    expect(html).toMatch(
      /<p class="error-message" id="exp_month-error"><span class="visually-hidden">Error: <\/span>Enter the expiry month as a number from 1 to 12\.<\/p>/,
    );
    const cvc = byId(html, 'cvc')!;
    expect(cvc['aria-invalid']).toBe('true');
    expect(cvc['aria-describedby']).toBe('cvc-hint cvc-error');
  });

  it('leaves fields without errors unmarked', () => {
    expect(byId(html, 'card_number')!['aria-invalid']).toBeUndefined();
    expect(byId(html, 'postal_code')!['aria-invalid']).toBeUndefined();
  });

  it('opens with an error summary (role=alert) linking each message to its field, in page order', () => {
    const main = inner(html, 'main');
    expect(main.indexOf('role="alert"')).toBeLessThan(main.indexOf('<h1>'));
    const summary = /<div class="error-summary"[\s\S]*?<\/div>/.exec(html)![0];
    expect(tags(summary, 'a').map((a) => a.href)).toEqual(['#exp_month', '#cvc']);
    expect(summary).toContain('<li>The form contained fields this page does not use.</li>');
  });

  it('prefixes the title so the error is heard first', () => {
    expect(inner(html, 'title')).toBe('Error: Pay Acme Widgets');
  });

  it('re-fills the safe values', () => {
    expect(byId(html, 'exp_month')!.value).toBe('13');
    expect(byId(html, 'postal_code')!.value).toBe('94105');
  });

  it('shows a page error (such as a decline) in the summary', () => {
    const page = renderPaymentPage(pageInput({ pageError: 'Your card issuer declined the payment.' }));
    expect(page).toContain('role="alert"');
    expect(page).toContain('<li>Your card issuer declined the payment.</li>');
  });
});

describe('renderPaymentPage: the card number is never written back', () => {
  it.each(['4111111111111111', '4111 1111 1111 1111'])('after a failed post containing %p', (typed) => {
    const parsed = parseHostedForm(
      { paymentMethod: 'card', amountMode: 'fixed', currency: 'USD' },
      { csrf_token: 't', card_number: typed, exp_month: '12', exp_year: '2030', cvc: '77', postal_code: '' },
      NOW,
    );
    if (parsed.ok) throw new Error('expected a failed parse');
    const html = renderPaymentPage(pageInput({ values: parsed.values, errors: parsed.errors }));
    expect(html).not.toContain('4111111111111111');
    expect(html).not.toContain('4111 1111');
    expect(html).not.toContain('value="77"');
    expect(byId(html, 'card_number')!.value).toBe('');
    expect(byId(html, 'exp_year')!.value).toBe('2030');
  });

  it('even when a caller passes it in values (with the CVC and account number)', () => {
    const values = { card_number: '5555555555554444', cvc: '321', account_number: '000123456789' };
    const card = renderPaymentPage(pageInput({ values }));
    const bank = renderPaymentPage(pageInput({ session: achSession(), values }));
    for (const html of [card, bank]) {
      expect(html).not.toContain('5555555555554444');
      expect(html).not.toContain('321');
      expect(html).not.toContain('000123456789');
    }
  });
});

describe('renderPaymentPage: ACH form', () => {
  const html = renderPaymentPage(
    pageInput({ session: achSession(), values: { account_type: 'SAVINGS', routing_number: '011000015' } }),
  );

  it('has exactly the CONTRACT §4 ACH fields, each labelled', () => {
    expect(names(html).sort()).toEqual([
      'account_number',
      'account_type',
      'name_on_account',
      'routing_number',
    ]);
    for (const control of payerControls(html)) {
      expect(tags(html, 'label').some((label) => label.for === control.id)).toBe(true);
    }
  });

  it('offers CHECKING and SAVINGS in a select, keeping the choice', () => {
    const options = tags(html, 'option');
    expect(options.map((o) => o.value)).toEqual(['', 'CHECKING', 'SAVINGS']);
    expect(options.find((o) => o.value === 'SAVINGS')).toHaveProperty('selected');
    expect(options.find((o) => o.value === '')).not.toHaveProperty('selected');
  });

  it('keeps account and routing numbers out of autofill and uses a numeric keyboard', () => {
    expect(byId(html, 'account_number')).toMatchObject({ autocomplete: 'off', inputmode: 'numeric' });
    expect(byId(html, 'routing_number')).toMatchObject({ autocomplete: 'off', inputmode: 'numeric' });
    expect(html).not.toContain('cc-');
    expect(byId(html, 'routing_number')!.value).toBe('011000015');
  });

  it('says what the payer authorises', () => {
    expect(visibleText(html)).toContain(
      'By selecting Pay $10.00, you authorise Acme Widgets to debit the total from this bank account.',
    );
  });

  it('marks the select invalid on error', () => {
    const page = renderPaymentPage(
      pageInput({ session: achSession(), errors: { account_type: 'Choose checking or savings.' } }),
    );
    expect(tags(page, 'select')[0]).toMatchObject({
      'aria-invalid': 'true',
      'aria-describedby': 'account_type-error',
    });
  });
});

describe('renderPaymentPage: order summary', () => {
  it('shows amount and total, and no fee lines when the fees are zero', () => {
    const text = visibleText(
      renderPaymentPage(pageInput({ session: cardSession({ amountMinor: '1050', totalMinor: '1050' }) })),
    );
    expect(text).toContain('Amount $10.50');
    expect(text).toContain('Total $10.50');
    expect(text).not.toMatch(/Surcharge|Convenience fee|surcharge|convenience fee/);
  });

  it('shows surcharge and convenience fee lines and their disclosures when not zero', () => {
    const session = cardSession({ surchargeMinor: '30', convenienceFeeMinor: '100', totalMinor: '1130' });
    const html = renderPaymentPage(pageInput({ session }));
    const text = visibleText(html);
    expect(text).toContain('Amount $10.00 Surcharge $0.30 Convenience fee $1.00 Total $11.30');
    expect(text).toContain('A credit card surcharge of $0.30 is included in the total.');
    expect(text).toContain('A convenience fee of $1.00 is included in the total.');
    expect(inner(html, 'button')).toBe('Pay $11.30');
  });

  it('shows only the fee that applies', () => {
    const text = visibleText(
      renderPaymentPage(
        pageInput({ session: cardSession({ convenienceFeeMinor: '150', totalMinor: '1150' }) }),
      ),
    );
    expect(text).toContain('Convenience fee $1.50');
    expect(text).not.toMatch(/surcharge/i);
  });

  it('groups thousands', () => {
    const text = visibleText(
      renderPaymentPage(
        pageInput({ session: cardSession({ amountMinor: '123456789', totalMinor: '123456789' }) }),
      ),
    );
    expect(text).toContain('Total $1,234,567.89');
  });

  it('describes a recurring plan', () => {
    const session = cardSession({
      savesPaymentMethod: true,
      credentialUsages: ['RECURRING'],
      recurringPlan: {
        recurringAmountMinor: '2500',
        frequency: 'monthly',
        interval: 1,
        numberOfPayments: 12,
        initialChargeAmountMinor: null,
      },
    });
    expect(visibleText(renderPaymentPage(pageInput({ session })))).toContain(
      'Recurring payments: $25.00 every month, 12 payments.',
    );
  });
});

describe('renderPaymentPage: customer-entered amount', () => {
  const html = renderPaymentPage(
    pageInput({ session: customerEnteredSession(), values: { amount: '12.5' } }),
  );

  it('adds a labelled amount input first, with a decimal keyboard', () => {
    expect(names(html)).toEqual(['amount', 'card_number', 'exp_month', 'exp_year', 'cvc', 'postal_code']);
    expect(byId(html, 'amount')).toMatchObject({
      inputmode: 'decimal',
      value: '12.5',
      'aria-describedby': 'amount-hint',
    });
    expect(tags(html, 'label').some((l) => l.for === 'amount')).toBe(true);
  });

  it('says fees are computed on submit and shows no total', () => {
    const text = visibleText(html);
    expect(text).toContain('Any surcharge or convenience fee is calculated when you submit');
    expect(text).not.toContain('Total');
    expect(inner(html, 'button')).toBe('Pay');
  });

  it('is absent on a fixed-amount page', () => {
    expect(byId(renderPaymentPage(pageInput()), 'amount')).toBeUndefined();
  });
});

describe('renderPaymentPage: saving the payment method', () => {
  it('a save_payment_method page says so, shows consent and no amount', () => {
    const html = renderPaymentPage(pageInput({ session: saveCardSession() }));
    expect(inner(html, 'h1')).toBe('Save payment method');
    expect(inner(html, 'button')).toBe('Save payment method');
    const text = visibleText(html);
    expect(text).toContain(
      'You authorise Acme Widgets to store this card for future payments: recurring payments.',
    );
    expect(text).toContain('Nothing is charged now.');
    expect(text).not.toContain('$');
    expect(html).not.toContain('<dl>');
    expect(names(html)).not.toContain('amount');
  });

  it('names every allowed usage in plain words', () => {
    const session = saveCardSession({ credentialUsages: ['RECURRING', 'INSTALLMENT', 'UNSCHEDULED_COF'] });
    expect(visibleText(renderPaymentPage(pageInput({ session })))).toContain(
      'for future payments: recurring payments, instalment payments and unscheduled payments you agree to.',
    );
  });

  it('an ACH save page speaks of a bank account', () => {
    const html = renderPaymentPage(
      pageInput({
        session: saveCardSession({ paymentMethod: 'ach', credentialUsages: ['ONE_TIME_FUTURE'] }),
      }),
    );
    expect(visibleText(html)).toContain(
      'to store this bank account for future payments: a single future payment.',
    );
  });

  it('a payment page that also saves shows the consent and still the total', () => {
    const session = cardSession({ savesPaymentMethod: true, credentialUsages: ['UNSCHEDULED_COF'] });
    const html = renderPaymentPage(pageInput({ session }));
    expect(visibleText(html)).toContain('You authorise Acme Widgets to store this card for future payments');
    expect(inner(html, 'button')).toBe('Pay $10.00');
  });

  it('a payment page that saves nothing asks no consent', () => {
    expect(visibleText(renderPaymentPage(pageInput()))).not.toContain('store this');
  });
});

describe('renderPaymentPage: branding', () => {
  it('shows an image logo as a data URL', () => {
    const appearance = appearanceWith(
      (a) => (a.logo = { mode: 'image', dataUrl: PNG, fileName: 'logo.png' }),
    );
    expect(tags(renderPaymentPage(pageInput({ appearance })), 'img')).toEqual([{ src: PNG, alt: '' }]);
  });

  it('shows no image when the mode is none, or when the stored data URL is not an accepted image', () => {
    expect(tags(renderPaymentPage(pageInput()), 'img')).toHaveLength(0);
    for (const dataUrl of ['data:image/svg+xml;base64,PHN2Zz4=', 'https://evil.test/logo.png', null]) {
      const appearance = appearanceWith((a) => (a.logo = { mode: 'image', dataUrl, fileName: null }));
      expect(tags(renderPaymentPage(pageInput({ appearance })), 'img')).toHaveLength(0);
    }
  });

  it('builds the stylesheet from the appearance', () => {
    const appearance = appearanceWith((a) => (a.button.fill = '#0f766e'));
    const css = inner(renderPaymentPage(pageInput({ appearance })), 'style');
    expect(css).toContain('background:#0f766e;color:#ffffff');
    expect(inner(renderPaymentPage(pageInput({ appearance: DEFAULT_APPEARANCE })), 'style')).toContain(
      `background:${DEFAULT_APPEARANCE.button.fill}`,
    );
  });
});

describe('helpers', () => {
  it.each([
    ['daily', 1, 'every day'],
    ['weekly', 1, 'every week'],
    ['biweekly', 1, 'every 2 weeks'],
    ['monthly', 2, 'every 2 months'],
    ['quarterly', 1, 'every 3 months'],
    ['annually', 1, 'every year'],
  ] as const)('everyPhrase(%s, %d) = %s', (frequency, interval, phrase) => {
    expect(everyPhrase(frequency, interval)).toBe(phrase);
  });

  it('joins lists in words', () => {
    expect(listInWords([])).toBe('');
    expect(listInWords(['a'])).toBe('a');
    expect(listInWords(['a', 'b'])).toBe('a and b');
    expect(listInWords(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
