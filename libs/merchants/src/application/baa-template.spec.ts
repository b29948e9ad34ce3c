import { wrapText } from '../../../platform/src/pdf/text-pdf';
import { baaTemplatePdf } from './baa-template';

const MERCHANT_ID = '6f1c8a2e-1111-4222-8333-444455556666';
const at = new Date('2026-11-02T09:30:00.000Z');

/** Just enough of a PDF reader to prove the file is well-formed. */
function parse(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  const xref = text.slice(startxref);
  const header = /^xref\n0 (\d+)\n/.exec(xref);
  if (!header) throw new Error('no xref table at startxref');
  const size = Number(header[1]);
  const entries = xref.slice(header[0].length).split('\n').slice(0, size);
  const trailer = /trailer\n<<([^]*?)>>\nstartxref/.exec(xref)?.[1] ?? '';
  const objects = new Map<number, string>();
  entries.forEach((entry, id) => {
    expect(entry).toMatch(/^\d{10} \d{5} [nf] $/); // 20 bytes with the newline
    if (id === 0) return expect(entry).toBe('0000000000 65535 f ');
    const offset = Number(entry.slice(0, 10));
    expect(text.startsWith(`${id} 0 obj\n`, offset)).toBe(true);
    objects.set(id, text.slice(offset, text.indexOf('\nendobj\n', offset)));
  });
  return { text, size, trailer, objects };
}

/** The strings drawn by `Tj` in every content stream, in order. */
function drawnText(objects: Map<number, string>): string[] {
  const out: string[] = [];
  for (const body of objects.values()) {
    const stream = /stream\n([^]*)endstream$/.exec(body)?.[1];
    if (!stream) continue;
    const length = Number(/\/Length (\d+)/.exec(body)?.[1]);
    expect(Buffer.byteLength(stream, 'latin1')).toBe(length);
    for (const match of stream.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)) {
      out.push(
        match[1].replace(/\\([0-7]{3}|.)/g, (_, e: string) =>
          e.length === 3 ? String.fromCharCode(parseInt(e, 8)) : e,
        ),
      );
    }
  }
  return out;
}

describe('BAA template PDF', () => {
  const pdf = baaTemplatePdf({
    merchantId: MERCHANT_ID,
    businessName: 'Sunrise Family Clinic (Café)',
    authorizedSignerName: 'Dr. Ana Ruiz',
    generatedAt: at,
  });
  const { text, size, trailer, objects } = parse(pdf);

  it('is a PDF 1.4 file with a correct cross-reference table and trailer', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    expect(objects.size).toBe(size - 1);
    expect(trailer).toContain(`/Size ${size}`);
    const root = Number(/\/Root (\d+) 0 R/.exec(trailer)?.[1]);
    expect(objects.get(root)).toMatch(/\/Type \/Catalog \/Pages (\d+) 0 R/);
  });

  it('has as many page objects as the page tree counts, each with Helvetica and its contents', () => {
    const tree = [...objects.values()].find((o) => o.includes('/Type /Pages'))!;
    const count = Number(/\/Count (\d+)/.exec(tree)?.[1]);
    const kids = [...(/\/Kids \[([^\]]*)\]/.exec(tree)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) =>
      Number(m[1]),
    );
    const pages = [...objects.entries()].filter(([, o]) => /\/Type \/Page\b(?!s)/.test(o));
    expect(count).toBeGreaterThanOrEqual(3); // the whole agreement does not fit on one page
    expect(pages.map(([id]) => id)).toEqual(kids);
    expect(kids).toHaveLength(count);
    for (const [, page] of pages) {
      const contents = Number(/\/Contents (\d+) 0 R/.exec(page)?.[1]);
      expect(objects.get(contents)).toMatch(/^\d+ 0 obj\n<< \/Length \d+ >>\nstream\n/);
      const font = Number(/\/F1 (\d+) 0 R/.exec(page)?.[1]);
      expect(objects.get(font)).toContain('/BaseFont /Helvetica /Encoding /WinAnsiEncoding');
    }
  });

  it('holds the agreement, filled in for the merchant, with signature lines', () => {
    const lines = drawnText(objects);
    const all = lines.join(' ');
    for (const section of [
      '1. Definitions',
      '2. Obligations and Activities of Business Associate',
      '3. Permitted Uses and Disclosures by Business Associate',
      '4. Obligations of Covered Entity',
      '5. Term and Termination',
      '6. Miscellaneous',
    ]) {
      expect(lines).toContain(section);
    }
    expect(lines).toContain('Sunrise Family Clinic (Café)');
    expect(lines).toContain(MERCHANT_ID);
    expect(lines).toContain('Dr. Ana Ruiz');
    expect(all).toContain('45 CFR 164.410');
    expect(lines.filter((l) => l === 'Signature:')).toHaveLength(2);
    expect(lines).toContain('Page 1 of ' + /\/Count (\d+)/.exec(text)?.[1]);
    // The parenthesis in the name is escaped, the é is one WinAnsi byte.
    expect(text).toContain('(Sunrise Family Clinic \\(Caf\\351\\)) Tj');
  });

  it('wraps text within the line and breaks words longer than a line', () => {
    const lines = wrapText('word '.repeat(200), 'F1', 10, 468);
    expect(lines.length).toBeGreaterThan(5);
    expect(wrapText('x'.repeat(500), 'F1', 10, 468).every((l) => l.length < 500)).toBe(true);
    expect(wrapText('', 'F1', 10, 468)).toEqual(['']);
  });

  it('renders any business name safely', () => {
    const odd = baaTemplatePdf({
      merchantId: MERCHANT_ID,
      businessName: `A\\B) (C\nD ✓ ${'long'.repeat(80)}`,
      authorizedSignerName: null,
      generatedAt: at,
    });
    const parsed = parse(odd);
    expect(drawnText(parsed.objects).join('')).toContain('A\\B) (C D ?');
  });
});
