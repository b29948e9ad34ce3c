import {
  DEFAULT_APPEARANCE,
  FONT_FAMILIES,
  LOGO_MAX_BYTES,
  PRESETS,
  PRESET_KEYS,
  base64DecodedLength,
  contrastRatio,
  cssFontFamily,
  decodeBase64Prefix,
  logoDataUrlError,
  resolveAppearance,
  sameAppearance,
  textColorOn,
  validateAppearance,
  type Appearance,
} from './appearance';

const fields = (errors: { field: string }[]) => errors.map((e) => e.field);

/** A data URL whose content starts with `magic` and is `size` bytes long in all. */
function dataUrl(mime: string, magic: number[], size = 64): string {
  const bytes = Buffer.alloc(size, 0x41);
  Buffer.from(magic).copy(bytes);
  return `data:${mime};base64,${bytes.toString('base64')}`;
}
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const JPEG_MAGIC = [0xff, 0xd8, 0xff, 0xe0];
const WEBP_MAGIC = [0x52, 0x49, 0x46, 0x46, 0x24, 0, 0, 0, 0x57, 0x45, 0x42, 0x50];
const PNG = dataUrl('image/png', PNG_MAGIC);
const JPEG = dataUrl('image/jpeg', JPEG_MAGIC);
const WEBP = dataUrl('image/webp', WEBP_MAGIC);
const SVG_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>';

describe('presets and defaults', () => {
  it.each(PRESET_KEYS)('%s is a complete, valid appearance named after its key', (key) => {
    expect(validateAppearance(PRESETS[key])).toEqual([]);
    expect(PRESETS[key].presetKey).toBe(key);
    expect(resolveAppearance({ presetKey: key })).toEqual(PRESETS[key]);
  });

  it('uses the default preset when nothing is named', () => {
    expect(resolveAppearance({})).toEqual(DEFAULT_APPEARANCE);
    expect(DEFAULT_APPEARANCE).toBe(PRESETS.default);
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(DEFAULT_APPEARANCE)).toBe(true);
    expect(Object.isFrozen(DEFAULT_APPEARANCE.header)).toBe(true);
    expect(Object.isFrozen(PRESETS.dark.fields.order)).toBe(true);
    const resolved = resolveAppearance({});
    resolved.header.bg = '#000000';
    expect(DEFAULT_APPEARANCE.header.bg).not.toBe('#000000');
  });

  // [what, text colour, background, minimum ratio]
  const pairs = (a: Appearance): [string, string, string, number][] => [
    ['header text on header', a.header.fontColor, a.header.bg, 4.5],
    ['body text on page', a.typography.fontColor, a.page.bg, 4.5],
    ['body text on panel', a.typography.fontColor, a.panel.bg, 4.5],
    ['input text on input', a.input.fontColor, a.input.bg, 4.5],
    ['input text on focused input', a.input.fontColor, a.input.focusBg, 4.5],
    ['input border on input', a.input.border, a.input.bg, 3],
    ['input border on panel', a.input.border, a.panel.bg, 3],
    ['button text on button', textColorOn(a.button.fill), a.button.fill, 4.5],
  ];
  describe.each(PRESET_KEYS)('%s meets WCAG AA contrast', (key) => {
    it.each(pairs(PRESETS[key]))('%s', (_what, foreground, background, minimum) => {
      expect(contrastRatio(foreground, background)).toBeGreaterThanOrEqual(minimum);
    });
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#FFFFFF')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#111111')).toBe('#ffffff');
  });
});

describe('validateAppearance: accepted', () => {
  const good: [string, unknown][] = [
    ['an empty body (all defaults)', {}],
    ['a preset only', { presetKey: 'dark' }],
    [
      '#rgb, #rrggbb and #rrggbbaa colours',
      { page: { bg: '#FfF', border: '#a1B2c3' }, button: { fill: '#11223344' } },
    ],
    ['the smallest and largest font sizes', { header: { fontSize: 10 }, input: { fontSize: 32 } }],
    ['every safe font family', { typography: { fontFamily: 'Times New Roman' } }],
    ['a PNG logo', { logo: { mode: 'image', dataUrl: PNG, fileName: 'logo.png' } }],
    ['a JPEG logo', { logo: { mode: 'image', dataUrl: JPEG, fileName: null } }],
    ['a WebP logo', { logo: { mode: 'image', dataUrl: WEBP } }],
    [
      'a logo of exactly 200 KiB',
      { logo: { mode: 'image', dataUrl: dataUrl('image/png', PNG_MAGIC, LOGO_MAX_BYTES) } },
    ],
    ['no logo', { logo: { mode: 'none', dataUrl: null, fileName: null } }],
    ['a kept image while the logo is off', { logo: { mode: 'none', dataUrl: PNG } }],
    ['a unicode file name', { logo: { mode: 'image', dataUrl: PNG, fileName: 'Lögo (final) 🎨.png' } }],
    [
      'a 255-character file name',
      { logo: { mode: 'image', dataUrl: PNG, fileName: `${'a'.repeat(251)}.png` } },
    ],
    [
      'booleans',
      {
        fields: {
          order: { tax: true, total: false },
          address: { hideAddressPhone: true },
          collectEmail: true,
        },
      },
    ],
    ['a plain-text label', { fields: { resultScreenLabel: 'Thanks & see you soon — "Acme"' } }],
    ['an empty label', { fields: { resultScreenLabel: '' } }],
    ['a 100-character label', { fields: { resultScreenLabel: 'é'.repeat(100) } }],
    ['undefined keys (left out)', { header: undefined, page: { bg: undefined } }],
    ['the full default', DEFAULT_APPEARANCE],
  ];
  it.each(good)('%s', (_what, input) => expect(validateAppearance(input)).toEqual([]));

  it.each(FONT_FAMILIES)('font family %s', (fontFamily) =>
    expect(validateAppearance({ typography: { fontFamily } })).toEqual([]),
  );
});

describe('validateAppearance: refused', () => {
  const colourCases: unknown[] = [
    'red; background:url(javascript:alert(1))',
    '#fff; background:url(javascript:alert(1))',
    '#fff;}body{background:url(//evil.example/x)}',
    '</style><script>alert(1)</script>',
    '#fff</style>',
    'expression(alert(1))',
    'url(javascript:alert(1))',
    'var(--x)',
    'red',
    'transparent',
    'rgb(0, 0, 0)',
    '#ffff',
    '#12345',
    '#1234567',
    '#gggggg',
    '#fff\n',
    ' #fff',
    'fff',
    '',
    123,
    null,
    true,
    ['#fff'],
  ];
  it.each(colourCases.map((value) => [JSON.stringify(value), value]))('colour %s', (_shown, value) => {
    expect(fields(validateAppearance({ header: { bg: value } }))).toEqual(['appearance.header.bg']);
  });

  const cases: [string, unknown, string[]][] = [
    ['null', null, ['appearance']],
    ['undefined', undefined, ['appearance']],
    ['an array', [], ['appearance']],
    ['a string', 'dark', ['appearance']],
    ['an unknown top-level key', { theme: 'dark' }, ['appearance.theme']],
    ['an unknown nested key', { header: { shadow: '#000' } }, ['appearance.header.shadow']],
    ['an unknown deep key', { fields: { order: { discount: true } } }, ['appearance.fields.order.discount']],
    ['a raw CSS key', { page: { 'background-image': 'url(x)' } }, ['appearance.page.background-image']],
    ['__proto__ from JSON', JSON.parse('{"__proto__": {"x": 1}}'), ['appearance.__proto__']],
    ['a constructor key', { header: { constructor: 1 } }, ['appearance.header.constructor']],
    ['a section that is a string', { header: '#fff' }, ['appearance.header']],
    ['a section that is an array', { page: ['#fff'] }, ['appearance.page']],
    ['a section that is null', { panel: null }, ['appearance.panel']],
    ['a nested section that is a boolean', { fields: { order: true } }, ['appearance.fields.order']],
    ['an unknown preset', { presetKey: 'neon' }, ['appearance.presetKey']],
    ['a prototype name as preset', { presetKey: 'constructor' }, ['appearance.presetKey']],
    ['__proto__ as preset', { presetKey: '__proto__' }, ['appearance.presetKey']],
    ['a preset that is not a string', { presetKey: 1 }, ['appearance.presetKey']],
    ['font size 9', { header: { fontSize: 9 } }, ['appearance.header.fontSize']],
    ['font size 33', { input: { fontSize: 33 } }, ['appearance.input.fontSize']],
    ['a fractional font size', { typography: { fontSize: 16.5 } }, ['appearance.typography.fontSize']],
    ['a font size string', { typography: { fontSize: '16' } }, ['appearance.typography.fontSize']],
    ['a font size with a unit', { typography: { fontSize: '16px' } }, ['appearance.typography.fontSize']],
    ['a NaN font size', { typography: { fontSize: NaN } }, ['appearance.typography.fontSize']],
    ['an infinite font size', { typography: { fontSize: Infinity } }, ['appearance.typography.fontSize']],
    [
      'a lower-cased font family',
      { typography: { fontFamily: 'arial' } },
      ['appearance.typography.fontFamily'],
    ],
    [
      'a font stack',
      { typography: { fontFamily: 'Arial, sans-serif' } },
      ['appearance.typography.fontFamily'],
    ],
    ['a quoted font family', { typography: { fontFamily: '"Arial"' } }, ['appearance.typography.fontFamily']],
    [
      'CSS in a font family',
      { typography: { fontFamily: 'Arial;}</style><script>alert(1)</script>' } },
      ['appearance.typography.fontFamily'],
    ],
    [
      'an unlisted font family',
      { typography: { fontFamily: 'Comic Sans MS' } },
      ['appearance.typography.fontFamily'],
    ],
    [
      'a prototype name as font family',
      { typography: { fontFamily: 'toString' } },
      ['appearance.typography.fontFamily'],
    ],
    ['a boolean as a string', { fields: { collectEmail: 'true' } }, ['appearance.fields.collectEmail']],
    ['a boolean as a number', { fields: { order: { tax: 1 } } }, ['appearance.fields.order.tax']],
    [
      'a null boolean',
      { fields: { address: { billingAddress: null } } },
      ['appearance.fields.address.billingAddress'],
    ],
    [
      'a 101-character label',
      { fields: { resultScreenLabel: 'a'.repeat(101) } },
      ['appearance.fields.resultScreenLabel'],
    ],
    [
      'markup in the label',
      { fields: { resultScreenLabel: '<script>alert(1)</script>' } },
      ['appearance.fields.resultScreenLabel'],
    ],
    [
      'a closing style tag in the label',
      { fields: { resultScreenLabel: '</style>' } },
      ['appearance.fields.resultScreenLabel'],
    ],
    [
      'a newline in the label',
      { fields: { resultScreenLabel: 'Paid\nthanks' } },
      ['appearance.fields.resultScreenLabel'],
    ],
    [
      'a bidi override in the label',
      { fields: { resultScreenLabel: 'Paid \u202Edesrever' } },
      ['appearance.fields.resultScreenLabel'],
    ],
    [
      'a label that is not a string',
      { fields: { resultScreenLabel: 5 } },
      ['appearance.fields.resultScreenLabel'],
    ],
    ['an unknown logo mode', { logo: { mode: 'svg' } }, ['appearance.logo.mode']],
    ['an upper-cased logo mode', { logo: { mode: 'IMAGE', dataUrl: PNG } }, ['appearance.logo.mode']],
    ['an image logo without an image', { logo: { mode: 'image' } }, ['appearance.logo.dataUrl']],
    [
      'an image logo with a null image',
      { logo: { mode: 'image', dataUrl: null } },
      ['appearance.logo.dataUrl'],
    ],
    [
      'several errors at once',
      { presetKey: 'x', header: { fontSize: 99, bg: 'red' }, extra: 1 },
      ['appearance.presetKey', 'appearance.header.fontSize', 'appearance.header.bg', 'appearance.extra'],
    ],
  ];
  it.each(cases)('%s', (_what, input, expected) => {
    expect(fields(validateAppearance(input)).sort()).toEqual([...expected].sort());
  });

  it('names errors under the path it is given', () => {
    expect(fields(validateAppearance({ header: { fontSize: 1 } }, 'body.appearance'))).toEqual([
      'body.appearance.header.fontSize',
    ]);
  });

  it('shortens an absurdly long unknown key in the field name', () => {
    const [error] = validateAppearance({ ['k'.repeat(10_000)]: 1 });
    expect(error.field.length).toBeLessThan(100);
  });
});

describe('logo data URL', () => {
  const html = `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`;
  const pngBody = PNG.slice('data:image/png;base64,'.length);
  const refused: [string, unknown][] = [
    ['an SVG (base64)', `data:image/svg+xml;base64,${Buffer.from(SVG_SCRIPT).toString('base64')}`],
    ['an SVG (plain)', `data:image/svg+xml,${SVG_SCRIPT}`],
    ['an SVG (url-encoded)', `data:image/svg+xml;utf8,${encodeURIComponent(SVG_SCRIPT)}`],
    [
      'an HTML data URL',
      `data:text/html;base64,${Buffer.from('<script>alert(1)</script>').toString('base64')}`,
    ],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a remote URL', 'https://evil.example/logo.png'],
    ['a protocol-relative URL', '//evil.example/logo.png'],
    ['a GIF', dataUrl('image/gif', [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])],
    ['image/jpg (not a MIME type)', dataUrl('image/jpg', JPEG_MAGIC)],
    ['an upper-cased MIME type', dataUrl('image/PNG', PNG_MAGIC)],
    ['an extra parameter', `data:image/png;charset=utf-8;base64,${pngBody}`],
    ['a non-base64 PNG', `data:image/png,${pngBody}`],
    ['no comma', 'data:image/png;base64'],
    ['no data', 'data:image/png;base64,'],
    ['a PNG header on JPEG bytes', dataUrl('image/png', JPEG_MAGIC)],
    ['a JPEG header on PNG bytes', dataUrl('image/jpeg', PNG_MAGIC)],
    [
      'a WebP header on RIFF/WAVE bytes',
      dataUrl('image/webp', [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]),
    ],
    ['a PNG header on HTML', html],
    ['an attribute break-out', `${PNG}" onerror="alert(1)`],
    ['a style break-out', `${PNG});}</style><script>alert(1)</script>`],
    ['a newline in the base64', `data:image/png;base64,${pngBody.slice(0, 8)}\n${pngBody.slice(8)}`],
    ['a space in the base64', `data:image/png;base64,${pngBody.slice(0, 8)} ${pngBody.slice(8)}`],
    ['the url-safe alphabet', `data:image/png;base64,${pngBody.slice(0, -4)}-_-_`],
    [
      'missing padding',
      `data:image/png;base64,${Buffer.from(PNG_MAGIC.slice(0, 10)).toString('base64').replace(/=+$/, '')}`,
    ],
    ['padding in the middle', `data:image/png;base64,${pngBody.slice(0, 8)}==${pngBody.slice(10)}`],
    ['one byte over 200 KiB', dataUrl('image/png', PNG_MAGIC, LOGO_MAX_BYTES + 1)],
    ['a 5 MiB image', dataUrl('image/png', PNG_MAGIC, 5 * 1024 * 1024)],
    ['a number', 42],
    ['an object', { src: PNG }],
  ];
  it.each(refused)('refuses %s', (_what, dataUrlValue) => {
    expect(logoDataUrlError(dataUrlValue)).not.toBeNull();
    expect(fields(validateAppearance({ logo: { mode: 'image', dataUrl: dataUrlValue } }))).toEqual([
      'appearance.logo.dataUrl',
    ]);
  });

  it.each([
    ['PNG', PNG],
    ['JPEG', JPEG],
    ['WebP', WEBP],
    ['PNG of exactly 200 KiB', dataUrl('image/png', PNG_MAGIC, LOGO_MAX_BYTES)],
    ['PNG of 200 KiB - 1 (one padding char)', dataUrl('image/png', PNG_MAGIC, LOGO_MAX_BYTES - 1)],
    ['PNG of 200 KiB - 2 (two padding chars)', dataUrl('image/png', PNG_MAGIC, LOGO_MAX_BYTES - 2)],
    ['the smallest PNG signature', dataUrl('image/png', PNG_MAGIC, 8)],
  ])('accepts a %s', (_what, value) => expect(logoDataUrlError(value)).toBeNull());

  it('keeps accepted logos inside the characters an attribute or url() cannot break out of', () => {
    for (const value of [PNG, JPEG, WEBP]) {
      expect(logoDataUrlError(value)).toBeNull();
      expect(value).toMatch(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/);
    }
  });
});

describe('logo file name', () => {
  const refused: [string, unknown][] = [
    ['a parent path', '../../etc/passwd'],
    ['a slash', 'images/logo.png'],
    ['a backslash', 'C:\\images\\logo.png'],
    ['.', '.'],
    ['..', '..'],
    ['the empty string', ''],
    ['a NUL', 'logo\u0000.png'],
    ['a newline', 'logo\n.png'],
    ['a DEL', 'logo\u007f.png'],
    ['a C1 control', 'logo\u0085.png'],
    ['a right-to-left override', 'logo\u202Egnp.exe'],
    ['256 characters', `${'a'.repeat(252)}.png`],
    ['a number', 7],
  ];
  it.each(refused)('refuses %s', (_what, fileName) => {
    expect(fields(validateAppearance({ logo: { mode: 'image', dataUrl: PNG, fileName } }))).toEqual([
      'appearance.logo.fileName',
    ]);
  });
});

describe('resolveAppearance', () => {
  it('overlays a partial body on its preset, key by key', () => {
    const resolved = resolveAppearance({
      presetKey: 'dark',
      header: { bg: '#ABC' },
      fields: { order: { tax: true }, resultScreenLabel: 'Paid' },
    });
    expect(resolved).toEqual({
      ...PRESETS.dark,
      header: { ...PRESETS.dark.header, bg: '#abc' },
      fields: {
        ...PRESETS.dark.fields,
        order: { ...PRESETS.dark.fields.order, tax: true },
        resultScreenLabel: 'Paid',
      },
    });
  });

  it('lower-cases colours so that #FFF and #fff are the same setting', () => {
    expect(resolveAppearance({ page: { bg: '#FFFFFF' } }).page.bg).toBe('#ffffff');
    expect(
      sameAppearance(
        resolveAppearance({ page: { bg: '#AABBCC' } }),
        resolveAppearance({ page: { bg: '#aabbcc' } }),
      ),
    ).toBe(true);
  });

  it('keeps the logo as given', () => {
    const resolved = resolveAppearance({ logo: { mode: 'image', dataUrl: PNG, fileName: 'logo.png' } });
    expect(resolved.logo).toEqual({ mode: 'image', dataUrl: PNG, fileName: 'logo.png' });
  });

  it('fills every key of the spec', () => {
    const resolved = resolveAppearance({ input: { fontSize: 12 } });
    expect(Object.keys(resolved).sort()).toEqual(
      ['button', 'fields', 'header', 'input', 'logo', 'page', 'panel', 'presetKey', 'typography'].sort(),
    );
    expect(Object.keys(resolved.input).sort()).toEqual(['bg', 'border', 'focusBg', 'fontColor', 'fontSize']);
    expect(Object.keys(resolved.fields.order).sort()).toEqual(
      ['customerSetsInvoice', 'invoiceNumber', 'shipping', 'tax', 'total'].sort(),
    );
    expect(Object.keys(resolved.fields.address).sort()).toEqual(
      ['billingAddress', 'hideAddressPhone', 'shippingAddress'].sort(),
    );
  });
});

describe('sameAppearance', () => {
  const reverseKeys = (value: unknown): unknown =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([key, child]) => [key, reverseKeys(child)]),
        )
      : value;

  it('ignores key order at every level (jsonb reorders keys)', () => {
    const reversed = reverseKeys(DEFAULT_APPEARANCE) as Appearance;
    expect(Object.keys(reversed.header)[0]).toBe('fontColor');
    expect(sameAppearance(reversed, DEFAULT_APPEARANCE)).toBe(true);
  });

  it('tells different values apart', () => {
    expect(sameAppearance(PRESETS.dark, DEFAULT_APPEARANCE)).toBe(false);
    expect(sameAppearance(resolveAppearance({ fields: { collectEmail: true } }), DEFAULT_APPEARANCE)).toBe(
      false,
    );
    expect(sameAppearance(resolveAppearance({ header: { fontSize: 21 } }), DEFAULT_APPEARANCE)).toBe(false);
  });
});

describe('font stacks', () => {
  it.each(FONT_FAMILIES)('%s maps to a fixed stack without CSS punctuation', (family) => {
    expect(cssFontFamily(family)).toMatch(/^[A-Za-z0-9 ",-]+$/);
  });

  it('falls back to the system stack for anything unknown', () => {
    expect(cssFontFamily('x;}</style>')).toBe(cssFontFamily('system-ui'));
    expect(cssFontFamily('constructor')).toBe(cssFontFamily('system-ui'));
  });
});

describe('base64 without Buffer', () => {
  // Deterministic pseudo-random bytes: a tiny LCG.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
  const samples = Array.from({ length: 40 }, (_, n) => Buffer.from(Array.from({ length: n }, random)));

  it.each(samples.map((bytes) => [bytes.length, bytes]))(
    'decodes the prefix of %i bytes as Buffer does',
    (_n, bytes) => {
      const base64 = (bytes as Buffer).toString('base64');
      expect(decodeBase64Prefix(base64, 12)).toEqual([...(bytes as Buffer).subarray(0, 12)]);
      expect(base64DecodedLength(base64)).toBe((bytes as Buffer).length);
    },
  );
});
