import { DEFAULT_APPEARANCE, type Appearance } from '../../../page-config/src';
import { attributes, text, type AttributeValue } from './html';
import { pageStylesheet } from './stylesheet';

export interface DocumentParts {
  /** Plain text; escaped here. */
  title: string;
  appearance: Appearance | null | undefined;
  styleNonce: string;
  /** Shown in the header bar; null when unknown (a page for a session that does not exist). */
  merchantName: string | null;
  mainAttributes: Readonly<Record<string, AttributeValue>>;
  /** Markup built from escaped parts. */
  content: string;
}

/** The logo shapes `validateAppearance` accepts; anything else in a stored row is not shown. */
const LOGO_DATA_URL = /^data:image\/(?:png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** The logo as a data URL (the CSP allows images from `data:` only), or null. */
export function logoSource(appearance: Appearance | null | undefined): string | null {
  const logo = appearance?.logo;
  if (!logo || logo.mode !== 'image' || typeof logo.dataUrl !== 'string') return null;
  return LOGO_DATA_URL.test(logo.dataUrl) ? logo.dataUrl : null;
}

function brandBar(merchantName: string | null, appearance: Appearance | null | undefined): string {
  const logo = logoSource(appearance);
  if (!merchantName && !logo) return '';
  // The name is written next to the logo, so the image itself is decorative (empty alt).
  const image = logo ? `<img${attributes({ src: logo, alt: '' })}>` : '';
  const name = merchantName ? `<span>${text(merchantName)}</span>` : '';
  return `<header class="brand">${image}${name}</header>\n`;
}

/**
 * A complete HTML5 document: no script, no external resource; one inline stylesheet carrying the
 * CSP nonce. `noindex` because a payment link must not end up in a search engine.
 */
export function renderDocument(parts: DocumentParts): string {
  const appearance = parts.appearance ?? DEFAULT_APPEARANCE;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${text(parts.title)}</title>`,
    `<style${attributes({ nonce: parts.styleNonce })}>\n${pageStylesheet(appearance)}\n</style>`,
    '</head>',
    '<body>',
    `${brandBar(parts.merchantName, appearance)}<main${attributes(parts.mainAttributes)}>`,
    parts.content,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
