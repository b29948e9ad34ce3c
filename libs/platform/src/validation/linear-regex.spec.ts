import { compileLinearRegex, linearFullMatch } from './linear-regex';

describe('linearFullMatch', () => {
  it.each<[string, string, boolean]>([
    ['[A-Z]{2}-\\d{4}', 'AB-1234', true],
    ['[A-Z]{2}-\\d{4}', 'AB-1234x', false], // the whole value, not a part of it
    ['[A-Z]{2}-\\d{4}', 'xAB-1234', false],
    ['^INV-[0-9]+$', 'INV-7', true], // anchors written by the partner are harmless
    ['a|ab', 'ab', true], // every alternative is tried against the whole value
    ['a|b', 'ab', false],
    ['.', '😀', true], // one character, however many UTF-16 units
    ['(?<year>\\d{4})', '2026', true], // named groups are fine
  ])('%s on %j: %p', (source, text, expected) => expect(linearFullMatch(source, text)).toBe(expected));

  it.each([
    ['(a+)+$', 'a'.repeat(999) + '!'],
    ['(a|a)*$', 'a'.repeat(999) + '!'],
    ['(a|aa)+$', 'a'.repeat(999) + '!'],
    ['\\d*\\d*\\d*\\d*x', '1'.repeat(1000)],
    ['(.*a){12}', 'b'.repeat(1000)],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', 'a'.repeat(1000)],
  ])('matches the ReDoS family %s on a hostile 1,000-character text in bounded time', (source, text) => {
    const started = process.hrtime.bigint();
    expect(linearFullMatch(source, text)).toBe(false);
    // Generous: linear matching takes milliseconds; a backtracking engine, seconds to forever.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });

  it('is null for a pattern it cannot run', () => expect(linearFullMatch('(a)\\1', 'aa')).toBeNull());
});

describe('compileLinearRegex', () => {
  it.each([
    ['(a)\\1', 'backreference'],
    ['(?<c>a)\\k<c>', 'named backreference'],
    ['(?=a)a', 'lookahead'],
    ['(?!a)b', 'negative lookahead'],
    ['(?<=a)b', 'lookbehind'],
    ['(?<!a)b', 'negative lookbehind'],
    ['\\u0041', 'a \\u escape'],
    ['a\\z', '\\z'],
    ['\\Aa', '\\A'],
    ['\\Q.\\E', '\\Q…\\E'],
    ['\\p{L}', '\\p'],
    ['\\x{41}', '\\x{…}'],
    ['[[:alpha:]]', 'a POSIX class'],
  ])('refuses %s (%s) with a message', (source) => {
    const compiled = compileLinearRegex(source);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toEqual(expect.any(String));
  });

  it('takes an escaped backslash before a dialect letter as two characters', () =>
    expect(compileLinearRegex('\\\\z').ok).toBe(true));
});
