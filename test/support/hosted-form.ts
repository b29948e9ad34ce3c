import { checkedFetch } from './checked-fetch';

/** The hosted page's form as a payer's browser fills and posts it (the sandbox's Visa test card). */
export const CARD_FORM = {
  card_number: '4111111111111111',
  exp_month: '12',
  exp_year: '2030',
  cvc: '123',
  postal_code: '94107',
};

/** The CSRF token of a rendered hosted page. */
export const csrfOf = (html: string): string => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

/** Posts the form as a browser does (urlencoded, redirects not followed). */
export const submitForm = (url: string, fields: Record<string, string>): Promise<Response> =>
  checkedFetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
