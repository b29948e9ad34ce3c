import { plainTextProblem } from './plain-text';

const REFUSED: [string, string][] = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['backspace', '\b'],
  ['TAB', '\t'],
  ['LF', '\n'],
  ['CR', '\r'],
  ['ESC', '\u001b'],
  ['unit separator', '\u001f'],
  ['DEL', '\u007f'],
  ['C1 padding', '\u0080'],
  ['C1 CSI', '\u009b'],
  ['C1 APC', '\u009f'],
  ['Arabic letter mark', '\u061c'],
  ['left-to-right mark', '\u200e'],
  ['right-to-left mark', '\u200f'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
  ['LRE', '\u202a'],
  ['RLE', '\u202b'],
  ['PDF', '\u202c'],
  ['LRO', '\u202d'],
  ['RLO', '\u202e'],
  ['LRI', '\u2066'],
  ['RLI', '\u2067'],
  ['FSI', '\u2068'],
  ['PDI', '\u2069'],
];

describe('plainTextProblem', () => {
  it.each(REFUSED)('refuses %s in single-line text, naming its code point', (_name, char) => {
    const problem = plainTextProblem(`Acme${char}Ltd`);
    expect(problem).toMatch(/U\+[0-9A-F]{4}/);
    expect(problem).not.toContain(char);
  });

  it.each(REFUSED.filter(([name]) => name !== 'LF'))('refuses %s in multi-line text too', (_name, char) =>
    expect(plainTextProblem(`line one\n${char}`, { multiline: true })).not.toBeNull(),
  );

  it('lets multi-line text hold LF, and only there', () => {
    expect(plainTextProblem('line one\nline two', { multiline: true })).toBeNull();
    expect(plainTextProblem('line one\nline two')).not.toBeNull();
    expect(plainTextProblem('line one\r\nline two', { multiline: true })).not.toBeNull();
  });

  it.each([
    'Corner Bakery',
    'Zoë Ångström',
    'Ünïcödé — “quotes” & emoji 🧾',
    'עברית',
    'العربية',
    '日本語',
    '',
  ])('accepts %j', (text) => expect(plainTextProblem(text)).toBeNull());

  it('names the first refused character', () =>
    expect(plainTextProblem('a\u202eb\u0007')).toMatch(/U\+202E$/));
});
