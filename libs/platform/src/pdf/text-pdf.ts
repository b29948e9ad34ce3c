/**
 * A small PDF writer for text documents (an agreement, a notice): title, headings, paragraphs,
 * lettered items, labelled fields, US Letter pages with a footer. PDF 1.4 with the standard
 * Helvetica fonts, uncompressed content streams and a cross-reference table with byte offsets,
 * so no library is needed and the output is byte-for-byte reproducible from its input.
 */

/** One block of a text document, laid out top to bottom. */
export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'para'; text: string }
  | { kind: 'item'; label: string; text: string }
  | { kind: 'field'; label: string; value: string }
  | { kind: 'space'; points: number };

/** The document information dictionary. */
export interface PdfInfo {
  title: string;
  subject: string;
  producer: string;
  at: Date;
}

export type FontKey = 'F1' | 'F2';
const FONT_NAMES: Record<FontKey, string> = { F1: 'Helvetica', F2: 'Helvetica-Bold' };

/** Advance widths (1/1000 em) of ASCII 32..126, from the Adobe core-font metrics (AFM). */
// prettier-ignore
const WIDTHS: Record<FontKey, readonly number[]> = {
  F1: [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
  ],
  F2: [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
  ],
};

const PAGE_WIDTH = 612; // US Letter, points
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FOOTER_Y = 40;

/** Text as WinAnsi (Latin-1 range): control characters become spaces, anything else `?`. */
function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else if (code <= 0xff) out += char;
    else if (char === '\u2019' || char === '\u2018') out += "'";
    else if (char === '\u201c' || char === '\u201d') out += '"';
    else if (char === '\u2013' || char === '\u2014') out += '-';
    else out += '?';
  }
  return out;
}

function textWidth(text: string, font: FontKey, size: number): number {
  let units = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    units += code >= 32 && code <= 126 ? WIDTHS[font][code - 32] : 556;
  }
  return (units * size) / 1000;
}

/** Greedy word wrap; a word longer than the line is broken by characters. */
export function wrapText(text: string, font: FontKey, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  // Measured as it will be drawn (WinAnsi), so wrapping and rendering agree.
  for (const word of toWinAnsi(text)
    .split(/ +/)
    .filter((w) => w.length > 0)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, font, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (textWidth(rest, font, size) > width) {
      let cut = 1;
      while (cut < rest.length && textWidth(rest.slice(0, cut + 1), font, size) <= width) cut++;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

interface PlacedText {
  font: FontKey;
  size: number;
  x: number;
  y: number;
  text: string;
}

function layout(blocks: Block[]): PlacedText[][] {
  const pages: PlacedText[][] = [[]];
  let y = PAGE_HEIGHT - MARGIN;
  const place = (font: FontKey, size: number, x: number, text: string, leading: number) => {
    if (y - leading < MARGIN) {
      pages.push([]);
      y = PAGE_HEIGHT - MARGIN;
    }
    y -= leading;
    pages[pages.length - 1].push({ font, size, x, y, text });
  };
  /** Keeps a heading with the first lines that follow it. */
  const reserve = (points: number) => {
    if (y - points < MARGIN) y = MARGIN - 1;
  };

  for (const block of blocks) {
    switch (block.kind) {
      case 'title':
        for (const line of wrapText(block.text, 'F2', 16, TEXT_WIDTH)) place('F2', 16, MARGIN, line, 22);
        y -= 8;
        break;
      case 'heading':
        y -= 8;
        reserve(48);
        for (const line of wrapText(block.text, 'F2', 11, TEXT_WIDTH)) place('F2', 11, MARGIN, line, 15);
        y -= 2;
        break;
      case 'para':
        for (const line of wrapText(block.text, 'F1', 10, TEXT_WIDTH)) place('F1', 10, MARGIN, line, 13);
        y -= 4;
        break;
      case 'item': {
        const indent = 22;
        wrapText(block.text, 'F1', 10, TEXT_WIDTH - indent).forEach((line, i) => {
          place('F1', 10, MARGIN + indent, line, 13);
          if (i === 0)
            pages[pages.length - 1].push({ font: 'F1', size: 10, x: MARGIN, y, text: block.label });
        });
        y -= 4;
        break;
      }
      case 'field': {
        const indent = 110;
        wrapText(block.value, 'F1', 10, TEXT_WIDTH - indent).forEach((line, i) => {
          place('F1', 10, MARGIN + indent, line, 16);
          if (i === 0)
            pages[pages.length - 1].push({ font: 'F2', size: 10, x: MARGIN, y, text: block.label });
        });
        break;
      }
      case 'space':
        y -= block.points;
        break;
    }
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// PDF 1.4 writer

/** A PDF string literal: `(`, `)` and `\` escaped, bytes above 0x7e as octal escapes. */
function pdfString(text: string): string {
  let out = '(';
  for (const char of toWinAnsi(text)) {
    const code = char.charCodeAt(0);
    if (char === '(' || char === ')' || char === '\\') out += `\\${char}`;
    else if (code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += char;
  }
  return `${out})`;
}

const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** Cuts `text` with an ellipsis so it fits `width` (the footer of a very long business name). */
function fit(text: string, font: FontKey, size: number, width: number): string {
  if (textWidth(text, font, size) <= width) return text;
  let cut = text.length;
  while (cut > 0 && textWidth(`${text.slice(0, cut)}...`, font, size) > width) cut--;
  return `${text.slice(0, cut)}...`;
}

function contentStream(lines: PlacedText[], pageNumber: number, pageCount: number, footer: string): string {
  const ops = lines.map(
    (l) => `BT /${l.font} ${num(l.size)} Tf ${num(l.x)} ${num(l.y)} Td ${pdfString(l.text)} Tj ET`,
  );
  const pageLabel = `Page ${pageNumber} of ${pageCount}`;
  const footerText = fit(toWinAnsi(footer), 'F1', 8, TEXT_WIDTH - 70);
  ops.push(`BT /F1 8 Tf ${MARGIN} ${FOOTER_Y} Td ${pdfString(footerText)} Tj ET`);
  ops.push(
    `BT /F1 8 Tf ${num(PAGE_WIDTH - MARGIN - textWidth(pageLabel, 'F1', 8))} ${FOOTER_Y} Td ${pdfString(pageLabel)} Tj ET`,
  );
  return `${ops.join('\n')}\n`;
}

/** PDF date `D:YYYYMMDDHHmmSSZ`. */
const pdfDate = (at: Date): string => `D:${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/**
 * Objects: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, 5 document info, then per page
 * its page object and its content stream. Every byte is Latin-1, so offsets are string lengths.
 */
function renderPdf(pages: PlacedText[][], info: PdfInfo, footer: string) {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + 2 * i);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  for (const [key, name] of Object.entries(FONT_NAMES)) {
    objects[key === 'F1' ? 3 : 4] =
      `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  }
  objects[5] =
    `<< /Title ${pdfString(info.title)} /Subject ${pdfString(info.subject)} ` +
    `/Producer ${pdfString(info.producer)} /CreationDate ${pdfString(pdfDate(info.at))} >>`;
  pages.forEach((lines, i) => {
    const pageId = pageIds[i];
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    const stream = contentStream(lines, i + 1, pages.length, footer);
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`;
  });

  // A binary comment after the header marks the file as binary for transfer tools.
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(pdf, 'latin1');
    pdf += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) pdf += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A text document as a PDF file, with `footer` and page numbers at the bottom of each page. */
export function textDocumentPdf(blocks: Block[], info: PdfInfo, footer: string): Buffer {
  return renderPdf(layout(blocks), info, footer);
}
