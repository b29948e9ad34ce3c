import { newStyleNonce, pageSecurityHeaders } from './security-headers';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const base = {
  embeddingDomains: ['shop.example.com'],
  environment: 'production' as const,
  styleNonce: NONCE,
};

describe('pageSecurityHeaders', () => {
  it('redirect mode: no framing at all, by CSP and X-Frame-Options', () => {
    const headers = pageSecurityHeaders({ ...base, renderingMode: 'redirect' });
    expect(headers['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'nonce-${NONCE}'; img-src data:; form-action 'self'; base-uri 'none'; ` +
        "frame-ancestors 'none'",
    );
    expect(headers['X-Frame-Options']).toBe('DENY');
  });

  it('iframe mode: the merchant allow-list, https only in production, and no X-Frame-Options', () => {
    const headers = pageSecurityHeaders({ ...base, renderingMode: 'iframe' });
    expect(headers['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'nonce-${NONCE}'; img-src data:; form-action 'self'; base-uri 'none'; ` +
        "frame-ancestors 'self' https://shop.example.com",
    );
    expect(headers).not.toHaveProperty('X-Frame-Options');
  });

  it('iframe mode in sandbox allows http and any port for dev servers', () => {
    const headers = pageSecurityHeaders({
      ...base,
      renderingMode: 'iframe',
      environment: 'sandbox',
      embeddingDomains: ['localhost'],
    });
    expect(headers['Content-Security-Policy']).toContain(
      "frame-ancestors 'self' http://localhost:* https://localhost:*",
    );
  });

  it('iframe mode with an empty allow-list lets only the platform frame the page', () => {
    const headers = pageSecurityHeaders({ ...base, renderingMode: 'iframe', embeddingDomains: [] });
    expect(headers['Content-Security-Policy']).toMatch(/frame-ancestors 'self'$/);
  });

  it.each(['redirect', 'iframe'] as const)('%s mode: no caching, no referrer, no sniffing, HTML', (mode) => {
    expect(pageSecurityHeaders({ ...base, renderingMode: mode })).toMatchObject({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/html; charset=utf-8',
    });
  });

  it.each(["abc'; script-src *", 'short', 'nonce with spaces ok?', 'a'.repeat(16) + '\r\nSet-Cookie: x=1'])(
    'refuses nonce %p, which could rewrite the header',
    (nonce) => {
      expect(() => pageSecurityHeaders({ ...base, renderingMode: 'redirect', styleNonce: nonce })).toThrow(
        'styleNonce',
      );
    },
  );
});

describe('newStyleNonce', () => {
  it('is accepted by pageSecurityHeaders and differs each time', () => {
    const a = newStyleNonce();
    const b = newStyleNonce();
    expect(a).not.toBe(b);
    expect(() => pageSecurityHeaders({ ...base, renderingMode: 'redirect', styleNonce: a })).not.toThrow();
  });
});
