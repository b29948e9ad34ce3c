import { attributes, escapeHtml, httpUrl, text } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('turns a script tag into inert text', () => {
    const escaped = escapeHtml('<script>alert(1)</script>');
    expect(escaped).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(escaped).not.toMatch(/[<>]/);
  });

  it('escapes an ampersand first, so an entity in the input is shown, not decoded', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeHtml('Café Zoë – 100% €')).toBe('Café Zoë – 100% €');
  });
});

describe('text', () => {
  it('escapes and removes control and bidi-override characters', () => {
    expect(text('Acme\u202Emoc.live\u0007 <b>')).toBe('Acmemoc.live &lt;b&gt;');
  });
});

describe('attributes', () => {
  it('double-quotes and escapes every value, in order', () => {
    expect(attributes({ id: 'a', value: '"><script>' })).toBe(' id="a" value="&quot;&gt;&lt;script&gt;"');
  });

  it('writes true as a bare attribute and leaves out false, null and undefined', () => {
    expect(attributes({ selected: true, disabled: false, a: null, b: undefined, n: 3 })).toBe(
      ' selected n="3"',
    );
  });

  it('refuses a name that is not a plain attribute name', () => {
    expect(() => attributes({ 'x onload': 'y' })).toThrow('not an attribute name');
  });
});

describe('httpUrl', () => {
  it.each(['https://pay.example.com/hpp/1', 'http://localhost:3000/hpp/1'])('accepts %s', (url) => {
    expect(httpUrl(url)).toBe(url);
  });

  it.each(['javascript:alert(1)', 'data:text/html,x', '/relative', 'not a url'])('refuses %s', (url) => {
    expect(httpUrl(url)).toBeNull();
  });
});
