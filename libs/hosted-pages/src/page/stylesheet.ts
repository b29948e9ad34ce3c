import {
  contrastRatio,
  cssFontFamily,
  DEFAULT_APPEARANCE,
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  textColorOn,
  type Appearance,
} from '../../../page-config/src';

/**
 * The page's one inline stylesheet, built from the merchant's appearance. The appearance is
 * validated when it is written, but it reaches this code from a database row, so every value is
 * checked again here: one bad row must not become CSS (or HTML) injection on a card form. A
 * value that fails falls back to the platform default for the same key, so the page still
 * renders and stays readable.
 */

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** Characters that could end a declaration, a rule or the style element itself. */
const CSS_BREAKOUT = /[<>;{}\\\p{Cc}]/u;

/** `value` when it cannot break out of a CSS declaration, else `fallback`. */
export function safeCssValue(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 && !CSS_BREAKOUT.test(value) ? value : fallback;
}

/** A hex colour, else `fallback` (a colour is the only thing a colour key may hold). */
export function safeColour(value: unknown, fallback: string): string {
  return typeof value === 'string' && HEX_COLOUR.test(value) ? safeCssValue(value, fallback) : fallback;
}

function safeFontSize(value: unknown, fallback: number): number {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= FONT_SIZE_MIN &&
    value <= FONT_SIZE_MAX
    ? value
    : fallback;
}

/** Red that reads on light panels; a light red for dark panels (WCAG AA, 4.5:1). */
const ERROR_ON_LIGHT = '#b42318';
const ERROR_ON_DARK = '#fda29b';

interface Palette {
  pageBg: string;
  pageBorder: string;
  headerBg: string;
  headerBorder: string;
  headerColour: string;
  headerSize: number;
  panelBg: string;
  panelBorder: string;
  inputBg: string;
  inputFocusBg: string;
  inputBorder: string;
  inputColour: string;
  inputSize: number;
  buttonFill: string;
  buttonBorder: string;
  buttonText: string;
  fontFamily: string;
  fontSize: number;
  textColour: string;
  errorColour: string;
}

/** Every value the stylesheet uses, each checked, each with the default as its fallback. */
export function palette(appearance: Appearance): Palette {
  const a = appearance ?? DEFAULT_APPEARANCE;
  const d = DEFAULT_APPEARANCE;
  const panelBg = safeColour(a.panel?.bg, d.panel.bg);
  const buttonFill = safeColour(a.button?.fill, d.button.fill);
  const textColour = safeColour(a.typography?.fontColor, d.typography.fontColor);
  return {
    pageBg: safeColour(a.page?.bg, d.page.bg),
    pageBorder: safeColour(a.page?.border, d.page.border),
    headerBg: safeColour(a.header?.bg, d.header.bg),
    headerBorder: safeColour(a.header?.border, d.header.border),
    headerColour: safeColour(a.header?.fontColor, d.header.fontColor),
    headerSize: safeFontSize(a.header?.fontSize, d.header.fontSize),
    panelBg,
    panelBorder: safeColour(a.panel?.border, d.panel.border),
    inputBg: safeColour(a.input?.bg, d.input.bg),
    inputFocusBg: safeColour(a.input?.focusBg, d.input.focusBg),
    inputBorder: safeColour(a.input?.border, d.input.border),
    inputColour: safeColour(a.input?.fontColor, d.input.fontColor),
    inputSize: safeFontSize(a.input?.fontSize, d.input.fontSize),
    buttonFill,
    buttonBorder: safeColour(a.button?.border, d.button.border),
    // The spec's button has no text colour: pick the one that reads on the fill.
    buttonText: textColorOn(buttonFill),
    fontFamily: safeCssValue(
      cssFontFamily(String(a.typography?.fontFamily)),
      cssFontFamily(d.typography.fontFamily),
    ),
    fontSize: safeFontSize(a.typography?.fontSize, d.typography.fontSize),
    textColour,
    errorColour: errorColourOn(panelBg, textColour),
  };
}

/** The error red that reads on the panel; on a mid-tone panel neither does, so the text colour. */
function errorColourOn(panelBg: string, textColour: string): string {
  for (const red of [ERROR_ON_LIGHT, ERROR_ON_DARK]) if (contrastRatio(red, panelBg) >= 4.5) return red;
  return textColour;
}

/**
 * The stylesheet. Mobile first: one column that fills a 375px screen, widening to a centred
 * panel; 44px touch targets; a visible focus ring on every control.
 */
export function pageStylesheet(appearance: Appearance): string {
  const p = palette(appearance);
  return [
    '*,*::before,*::after{box-sizing:border-box}',
    'html{-webkit-text-size-adjust:100%;text-size-adjust:100%}',
    `body{margin:0;min-height:100vh;background:${p.pageBg};color:${p.textColour};` +
      `font-family:${p.fontFamily};font-size:${p.fontSize}px;line-height:1.5}`,
    `.brand{display:flex;align-items:center;gap:.75rem;padding:.75rem 1rem;background:${p.headerBg};` +
      `border-bottom:1px solid ${p.headerBorder};color:${p.headerColour};font-size:${p.headerSize}px;` +
      'font-weight:600;overflow-wrap:anywhere}',
    '.brand img{display:block;max-height:48px;max-width:160px;width:auto;height:auto}',
    `main{display:block;max-width:32rem;margin:1rem auto;padding:1.25rem;background:${p.panelBg};` +
      `border:1px solid ${p.panelBorder};border-radius:8px;box-shadow:0 1px 3px ${p.pageBorder};` +
      'overflow-wrap:anywhere}',
    '@media (max-width:32rem){main{margin:0;border-left:0;border-right:0;border-radius:0;box-shadow:none}}',
    'h1{font-size:1.5em;line-height:1.25;margin:0 0 1rem}',
    'h2{font-size:1.125em;margin:0 0 .5rem}',
    'p{margin:0 0 1rem}',
    `.summary{margin:0 0 1.25rem;padding:0 0 1rem;border-bottom:1px solid ${p.panelBorder}}`,
    '.summary dl,.details{margin:0 0 1rem}',
    '.line{display:flex;justify-content:space-between;gap:1rem;padding:.125rem 0}',
    '.line dt{margin:0}.line dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}',
    `.total{font-weight:700;border-top:1px solid ${p.panelBorder};margin-top:.25rem;padding-top:.375rem}`,
    '.note{font-size:.875em}',
    'fieldset{border:0;margin:0;padding:0;min-width:0}',
    'legend{padding:0;font-weight:600;margin-bottom:.25rem}',
    '.field{margin:0 0 1rem;min-width:0}',
    '.row{display:flex;flex-wrap:wrap;gap:0 .75rem}',
    '.row>.field{flex:1 1 6rem}',
    'label{display:block;font-weight:600;margin-bottom:.25rem}',
    '.hint{margin:0 0 .25rem;font-size:.875em}',
    `input,select{display:block;width:100%;min-height:44px;padding:.5rem .75rem;font-family:inherit;` +
      `font-size:${p.inputSize}px;color:${p.inputColour};background:${p.inputBg};` +
      `border:1px solid ${p.inputBorder};border-radius:4px}`,
    `input:focus,select:focus{background:${p.inputFocusBg};outline:3px solid ${p.buttonFill};outline-offset:1px}`,
    `.error-message{margin:0 0 .25rem;color:${p.errorColour};font-weight:600}`,
    `.field-error input,.field-error select{border:2px solid ${p.errorColour}}`,
    `.error-summary{margin:0 0 1.25rem;padding:1rem;border:3px solid ${p.errorColour}}`,
    '.error-summary ul{margin:0;padding-left:1.25rem}',
    `.error-summary a{color:${p.errorColour};font-weight:600}`,
    `.button,button{display:block;width:100%;min-height:44px;margin:1.25rem 0 0;padding:.75rem 1rem;` +
      `font-family:inherit;font-size:1em;font-weight:600;text-align:center;text-decoration:none;` +
      `background:${p.buttonFill};color:${p.buttonText};border:1px solid ${p.buttonBorder};` +
      'border-radius:4px;cursor:pointer}',
    `.button:focus,button:focus{outline:3px solid ${p.textColour};outline-offset:2px}`,
    '.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;' +
      'clip:rect(0 0 0 0);white-space:nowrap;border:0}',
  ].join('\n');
}
