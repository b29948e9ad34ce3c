import { DEFAULT_APPEARANCE, PRESETS, contrastRatio } from '../../../page-config/src/appearance';
import { pageStylesheet, palette, safeColour, safeCssValue } from './stylesheet';
import { appearanceWith } from './testing/fixtures';

describe('safeCssValue', () => {
  it.each(['red;}', 'x{', '}', '</style>', 'a\\62', 'a\nb'])('refuses %p and falls back', (value) => {
    expect(safeCssValue(value, 'fallback')).toBe('fallback');
  });

  it('keeps a value that cannot break out', () => {
    expect(safeCssValue('"Segoe UI", sans-serif', 'fallback')).toBe('"Segoe UI", sans-serif');
  });

  it('falls back for a non-string or empty value', () => {
    expect(safeCssValue(12, 'f')).toBe('f');
    expect(safeCssValue('', 'f')).toBe('f');
  });
});

describe('safeColour', () => {
  it.each(['#fff', '#1d4ed8', '#1d4ed8cc'])('keeps hex colour %s', (colour) => {
    expect(safeColour(colour, '#000000')).toBe(colour);
  });

  it.each(['red', 'rgb(0,0,0)', '#fff;background:url(x)', 'url(https://evil.test/x)', '#fff\n'])(
    'refuses %p',
    (value) => {
      expect(safeColour(value, '#000000')).toBe('#000000');
    },
  );
});

describe('pageStylesheet', () => {
  it('uses the appearance colours, sizes and font stack', () => {
    const css = pageStylesheet(
      appearanceWith((a) => {
        a.page.bg = '#abcdef';
        a.button.fill = '#123456';
        a.input.fontSize = 18;
        a.typography.fontFamily = 'Georgia';
      }),
    );
    expect(css).toContain('background:#abcdef');
    expect(css).toContain('background:#123456');
    expect(css).toContain('font-size:18px');
    expect(css).toContain('font-family:Georgia, "Times New Roman", serif');
  });

  it('gives the button the text colour that reads on its fill', () => {
    expect(palette(appearanceWith((a) => (a.button.fill = '#111111'))).buttonText).toBe('#ffffff');
    expect(palette(appearanceWith((a) => (a.button.fill = '#fde047'))).buttonText).toBe('#000000');
  });

  it('replaces hostile stored values with the default, so nothing escapes the style element', () => {
    const hostile = appearanceWith((a) => {
      a.page.bg = '#fff;}</style><script>alert(1)</script><style>';
      a.button.fill = 'red}body{background:url(https://evil.test/)';
      a.header.fontSize = '20px;}' as unknown as number;
      a.typography.fontFamily = 'x;}</style>';
    });
    const css = pageStylesheet(hostile);
    expect(css).not.toMatch(/<|evil|script|url\(/);
    expect(css).toContain(`background:${DEFAULT_APPEARANCE.page.bg}`);
    expect(css).toContain(`background:${DEFAULT_APPEARANCE.button.fill}`);
    expect(css).toContain(`font-size:${DEFAULT_APPEARANCE.header.fontSize}px`);
  });

  it('falls back for missing sections of a malformed row', () => {
    const broken = { ...DEFAULT_APPEARANCE, button: undefined } as unknown as typeof DEFAULT_APPEARANCE;
    expect(pageStylesheet(broken)).toContain(`background:${DEFAULT_APPEARANCE.button.fill}`);
  });

  it('picks an error colour that meets 4.5:1 on the light and dark presets', () => {
    for (const preset of Object.values(PRESETS)) {
      const p = palette(preset);
      expect(contrastRatio(p.errorColour, p.panelBg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('has no fixed width wider than a 375px screen', () => {
    const widths = [...pageStylesheet(DEFAULT_APPEARANCE).matchAll(/(?:^|[;{])(?:min-)?width:(\d+)px/g)];
    for (const [, px] of widths) expect(Number(px)).toBeLessThanOrEqual(375);
  });
});
