import { randomBytes } from 'node:crypto';
import { frameAncestorsDirective, type HppEnvironment } from '../../../page-config/src';
import type { RenderingMode } from '../domain/session/session-states';

export interface PageSecurityOptions {
  renderingMode: RenderingMode;
  /** The merchant's allow-list; used only in iframe mode. */
  embeddingDomains: readonly string[];
  environment: HppEnvironment;
  /** The nonce of the page's one `<style>` element. */
  styleNonce: string;
}

/**
 * A CSP nonce is base64 (or base64url) text; anything else could end the directive or the
 * header. 16 characters is the least that carries the 96 bits a guessable nonce must not have.
 */
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** A fresh nonce for one response (128 random bits). */
export function newStyleNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The headers of every hosted page (form and result pages alike). The CSP allows nothing but the
 * nonce'd inline stylesheet, `data:` images (the logo) and posting the form back to this origin
 * (the hpp_url is same-origin, and so is the 303 to the result page). Framing: nowhere in
 * redirect mode; in iframe mode the merchant's allow-list, and then no X-Frame-Options, which
 * cannot express an allow-list and would override it in older browsers.
 */
export function pageSecurityHeaders(options: PageSecurityOptions): Record<string, string> {
  if (!NONCE.test(options.styleNonce))
    throw new Error('styleNonce must be base64 text of at least 16 characters');
  const iframe = options.renderingMode === 'iframe';
  const frameAncestors = iframe
    ? frameAncestorsDirective(options.embeddingDomains, options.environment)
    : "frame-ancestors 'none'";
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${options.styleNonce}'`,
    'img-src data:',
    "form-action 'self'",
    "base-uri 'none'",
    frameAncestors,
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    ...(iframe ? {} : { 'X-Frame-Options': 'DENY' }),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'text/html; charset=utf-8',
  };
}
