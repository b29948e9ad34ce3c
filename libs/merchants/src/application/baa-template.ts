/**
 * `GET /merchants/{id}/compliance/baa-template`: a HIPAA business associate agreement, as a PDF
 * the merchant (the covered entity) signs and uploads back as a `BAA_SIGNED` compliance document.
 *
 * The text paraphrases the sample business associate agreement provisions published by the U.S.
 * Department of Health and Human Services (public-domain guidance), adapted to payment services.
 * The PDF is written here (PDF 1.4: catalog, page tree, pages, the standard Helvetica fonts,
 * uncompressed content streams, a cross-reference table with byte offsets, trailer): no library.
 */

export interface BaaTemplateInput {
  merchantId: string;
  businessName: string;
  authorizedSignerName: string | null;
  generatedAt: Date;
}

// ---------------------------------------------------------------------------------------------
// The agreement

type Block =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'para'; text: string }
  | { kind: 'item'; label: string; text: string }
  | { kind: 'field'; label: string; value: string }
  | { kind: 'space'; points: number };

const para = (text: string): Block => ({ kind: 'para', text });
const heading = (text: string): Block => ({ kind: 'heading', text });
const items = (...entries: string[]): Block[] =>
  entries.map((text, i) => ({ kind: 'item', label: `(${String.fromCharCode(97 + i)})`, text }));
const space = (points = 8): Block => ({ kind: 'space', points });
const BLANK = '________________________________________';

function agreement(input: BaaTemplateInput): Block[] {
  const merchant = `${input.businessName} (merchant id ${input.merchantId})`;
  const signature = (party: string, name: string | null, who: string): Block[] => [
    { kind: 'heading', text: party },
    { kind: 'field', label: 'Entity:', value: who },
    { kind: 'field', label: 'Signature:', value: BLANK },
    { kind: 'field', label: 'Name:', value: name ?? BLANK },
    { kind: 'field', label: 'Title:', value: BLANK },
    { kind: 'field', label: 'Date:', value: BLANK },
  ];
  return [
    { kind: 'title', text: 'HIPAA Business Associate Agreement' },
    { kind: 'field', label: 'Covered Entity:', value: input.businessName },
    { kind: 'field', label: 'Merchant ID:', value: input.merchantId },
    { kind: 'field', label: 'Effective Date:', value: BLANK },
    { kind: 'field', label: 'Template generated:', value: input.generatedAt.toISOString().slice(0, 10) },
    space(),
    para(
      'Template notice: this agreement is adapted from the sample business associate agreement ' +
        'provisions published by the U.S. Department of Health and Human Services. It is provided ' +
        'for convenience and is not legal advice; the parties should review it with counsel and ' +
        'complete the bracketed and blank terms before signing.',
    ),
    space(),
    para(
      `This Business Associate Agreement (the "Agreement") is entered into as of the Effective ` +
        `Date by and between ${merchant} ("Covered Entity") and the payment service provider that ` +
        `processes payments for Covered Entity through this platform, named in the signature block ` +
        `below ("Business Associate"), each a "Party". Business Associate provides payment ` +
        `processing services to Covered Entity under a separate services agreement (the "Services ` +
        `Agreement"), in the course of which it may create, receive, maintain or transmit ` +
        `protected health information on behalf of Covered Entity. The Parties enter into this ` +
        `Agreement to comply with the HIPAA Rules.`,
    ),
    heading('1. Definitions'),
    ...items(
      'Catch-all definition. The following terms used in this Agreement have the same meaning as ' +
        'those terms in the HIPAA Rules: Breach, Data Aggregation, Designated Record Set, ' +
        'Disclosure, Health Care Operations, Individual, Minimum Necessary, Notice of Privacy ' +
        'Practices, Protected Health Information, Required By Law, Secretary, Security Incident, ' +
        'Subcontractor, Unsecured Protected Health Information, and Use.',
      'Business Associate. "Business Associate" generally has the same meaning as the term ' +
        '"business associate" at 45 CFR 160.103 and, in reference to the party to this Agreement, ' +
        'means the party so named in the signature block below.',
      'Covered Entity. "Covered Entity" generally has the same meaning as the term "covered ' +
        `entity" at 45 CFR 160.103 and, in reference to the party to this Agreement, means ` +
        `${merchant}.`,
      'HIPAA Rules. "HIPAA Rules" means the Privacy, Security, Breach Notification, and ' +
        'Enforcement Rules at 45 CFR Part 160 and Part 164.',
    ),
    heading('2. Obligations and Activities of Business Associate'),
    para('Business Associate agrees to:'),
    ...items(
      'Not use or disclose protected health information other than as permitted or required by ' +
        'this Agreement or as required by law.',
      'Use appropriate safeguards, and comply with Subpart C of 45 CFR Part 164 with respect to ' +
        'electronic protected health information, to prevent use or disclosure of protected health ' +
        'information other than as provided for by this Agreement.',
      'Report to Covered Entity any use or disclosure of protected health information not provided ' +
        'for by this Agreement of which it becomes aware, including breaches of unsecured protected ' +
        'health information as required at 45 CFR 164.410, and any security incident of which it ' +
        'becomes aware, within [____] days of discovery.',
      'In accordance with 45 CFR 164.502(e)(1)(ii) and 164.308(b)(2), if applicable, ensure that ' +
        'any subcontractors that create, receive, maintain, or transmit protected health ' +
        'information on behalf of Business Associate agree to the same restrictions, conditions, ' +
        'and requirements that apply to Business Associate with respect to such information.',
      'Make available protected health information in a designated record set to Covered Entity ' +
        "as necessary to satisfy Covered Entity's obligations under 45 CFR 164.524.",
      'Make any amendment(s) to protected health information in a designated record set as ' +
        'directed or agreed to by Covered Entity pursuant to 45 CFR 164.526, or take other measures ' +
        "as necessary to satisfy Covered Entity's obligations under 45 CFR 164.526.",
      'Maintain and make available the information required to provide an accounting of ' +
        "disclosures to Covered Entity as necessary to satisfy Covered Entity's obligations under " +
        '45 CFR 164.528.',
      "To the extent Business Associate is to carry out one or more of Covered Entity's " +
        'obligations under Subpart E of 45 CFR Part 164, comply with the requirements of Subpart E ' +
        'that apply to Covered Entity in the performance of such obligations.',
      'Make its internal practices, books, and records available to the Secretary for purposes of ' +
        'determining compliance with the HIPAA Rules.',
    ),
    heading('3. Permitted Uses and Disclosures by Business Associate'),
    ...items(
      'Business Associate may only use or disclose protected health information as necessary to ' +
        'perform the services set forth in the Services Agreement: authorizing, capturing, settling, ' +
        'refunding and reporting payment transactions of Covered Entity, and handling the ' +
        'chargebacks, disputes and fraud screening those transactions require.',
      'Business Associate may use or disclose protected health information as required by law.',
      'Business Associate agrees to make uses and disclosures and requests for protected health ' +
        "information consistent with Covered Entity's minimum necessary policies and procedures.",
      'Business Associate may not use or disclose protected health information in a manner that ' +
        'would violate Subpart E of 45 CFR Part 164 if done by Covered Entity, except for the ' +
        'specific uses and disclosures set forth in (e) through (g) below.',
      'Business Associate may use protected health information for the proper management and ' +
        'administration of Business Associate or to carry out the legal responsibilities of ' +
        'Business Associate.',
      'Business Associate may disclose protected health information for the proper management and ' +
        'administration of Business Associate or to carry out its legal responsibilities, provided ' +
        'the disclosures are required by law, or Business Associate obtains reasonable assurances ' +
        'from the person to whom the information is disclosed that the information will remain ' +
        'confidential and be used or further disclosed only as required by law or for the purposes ' +
        'for which it was disclosed to the person, and the person notifies Business Associate of ' +
        'any instances of which it is aware in which the confidentiality of the information has ' +
        'been breached.',
      'Business Associate may provide data aggregation services relating to the health care ' +
        'operations of Covered Entity.',
    ),
    heading('4. Obligations of Covered Entity'),
    ...items(
      'Covered Entity shall notify Business Associate of any limitation(s) in the notice of ' +
        'privacy practices of Covered Entity under 45 CFR 164.520, to the extent that such ' +
        "limitation may affect Business Associate's use or disclosure of protected health " +
        'information.',
      'Covered Entity shall notify Business Associate of any changes in, or revocation of, the ' +
        'permission by an individual to use or disclose his or her protected health information, ' +
        "to the extent that such changes may affect Business Associate's use or disclosure of " +
        'protected health information.',
      'Covered Entity shall notify Business Associate of any restriction on the use or disclosure ' +
        'of protected health information that Covered Entity has agreed to or is required to abide ' +
        "by under 45 CFR 164.522, to the extent that such restriction may affect Business Associate's " +
        'use or disclosure of protected health information.',
      'Covered Entity shall not request Business Associate to use or disclose protected health ' +
        'information in any manner that would not be permissible under Subpart E of 45 CFR Part 164 ' +
        'if done by Covered Entity, and shall send Business Associate only the minimum protected ' +
        'health information a payment requires (for example, no diagnosis or treatment details in ' +
        'payment descriptions or custom fields).',
    ),
    heading('5. Term and Termination'),
    ...items(
      'Term. The term of this Agreement shall be effective as of the Effective Date and shall ' +
        'terminate when the Services Agreement ends or on the date Covered Entity terminates this ' +
        'Agreement for cause as authorized in (b) below, whichever is sooner.',
      'Termination for Cause. Business Associate authorizes termination of this Agreement by ' +
        'Covered Entity if Covered Entity determines Business Associate has violated a material ' +
        'term of this Agreement and Business Associate has not cured the breach or ended the ' +
        'violation within the time specified by Covered Entity.',
      'Obligations of Business Associate upon Termination. Upon termination of this Agreement for ' +
        'any reason, Business Associate shall return to Covered Entity or, if agreed to by Covered ' +
        'Entity, destroy all protected health information received from Covered Entity, or ' +
        'created, maintained, or received by Business Associate on behalf of Covered Entity, that ' +
        'Business Associate still maintains in any form, and shall retain no copies, except that ' +
        'Business Associate may retain the protected health information it needs to continue its ' +
        'proper management and administration or to carry out its legal responsibilities ' +
        '(including transaction records that law or payment network rules require it to keep). ' +
        'For as long as it retains any such information, Business Associate shall continue to use ' +
        'appropriate safeguards and comply with Subpart C of 45 CFR Part 164, shall not use or ' +
        'disclose it other than for the purposes for which it was retained, and shall return or ' +
        'destroy it when no longer needed for those purposes.',
      'Survival. The obligations of Business Associate under this Section shall survive the ' +
        'termination of this Agreement.',
    ),
    heading('6. Miscellaneous'),
    ...items(
      'Regulatory References. A reference in this Agreement to a section in the HIPAA Rules means ' +
        'the section as in effect or as amended.',
      'Amendment. The Parties agree to take such action as is necessary to amend this Agreement ' +
        'from time to time as is necessary for compliance with the requirements of the HIPAA Rules ' +
        'and any other applicable law.',
      'Interpretation. Any ambiguity in this Agreement shall be interpreted to permit compliance ' +
        'with the HIPAA Rules.',
      'Counterparts. This Agreement may be signed in counterparts and by electronic signature, ' +
        'each of which is an original and all of which together are one agreement.',
    ),
    space(),
    para(
      'IN WITNESS WHEREOF, the Parties have executed this Agreement by their duly authorized ' +
        'representatives as of the Effective Date.',
    ),
    ...signature('COVERED ENTITY', input.authorizedSignerName, input.businessName),
    ...signature('BUSINESS ASSOCIATE', null, BLANK),
    space(),
    para(
      'After signing, upload this agreement as a compliance document of type BAA_SIGNED ' +
        `(POST /merchants/${input.merchantId}/compliance-documents) to satisfy the hipaa_baa_signed ` +
        'check of the go-live gate.',
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Layout

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
function renderPdf(
  pages: PlacedText[][],
  info: { title: string; subject: string; at: Date },
  footer: string,
) {
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
    `/Producer (partner-payments baa-template) /CreationDate ${pdfString(pdfDate(info.at))} >>`;
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

/** The merchant's BAA template as a PDF file. */
export function baaTemplatePdf(input: BaaTemplateInput): Buffer {
  return renderPdf(
    layout(agreement(input)),
    {
      title: 'HIPAA Business Associate Agreement',
      subject: `BAA template for ${input.businessName} (${input.merchantId})`,
      at: input.generatedAt,
    },
    `HIPAA Business Associate Agreement - ${input.businessName} - merchant ${input.merchantId}`,
  );
}
