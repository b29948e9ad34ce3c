/**
 * A payer's browser on the hosted page (`/api/v1/hpp/{sessionId}` and its `/result`) is shown an
 * HTML page for every error, never problem+json: the payer cannot read JSON and the partner is
 * not there to. `/api/v1/hpp/sessions…` is the partner's API and keeps problem+json.
 */
const PAYER_PAGE = /^\/api\/v1\/hpp\/(?!sessions(?:[/?#]|$))[^/?#\s]+(?:\/result)?\/?(?:[?#]|$)/;

export function isPayerPage(url: string | undefined): boolean {
  return url !== undefined && PAYER_PAGE.test(url);
}

const HEADINGS: Record<number, [string, string]> = {
  400: ['This request could not be read', 'Reload the payment page and try again.'],
  408: ['The page took too long to load', 'Check your connection, then reload the payment page.'],
  413: ['The form was too large to send', 'Reload the payment page and try again.'],
  414: ['The link is too long', 'Check the link, or contact the business that sent it to you.'],
  415: ['The form could not be read', 'Reload the payment page and try again.'],
  431: ['This request could not be read', 'Reload the payment page and try again.'],
  501: ['This request could not be read', 'Reload the payment page and try again.'],
};

const FALLBACK_CLIENT: [string, string] = [
  'This page could not be shown',
  'Reload the payment page, or contact the business that sent you the link.',
];
const FALLBACK_SERVER: [string, string] = [
  'Something went wrong on our side',
  'Nothing was charged by this request. Try again in a moment.',
];

/**
 * Headers as every hosted page sends them (no script, no framing, no caching), without the
 * merchant's styling: the error may have come before anything about the session was known.
 */
export const PAYER_ERROR_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** The page's text is fixed per status: nothing from the request is echoed into it. */
export function payerErrorPage(status: number): string {
  const [heading, advice] = HEADINGS[status] ?? (status >= 500 ? FALLBACK_SERVER : FALLBACK_CLIENT);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${heading}</title>`,
    '</head>',
    `<body>`,
    `<main data-status="${status}">`,
    `<h1>${heading}</h1>`,
    `<p>${advice}</p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
