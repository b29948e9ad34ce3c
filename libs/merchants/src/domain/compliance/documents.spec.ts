import { InvalidStateTransition } from '../../../../platform/src/problem';
import { decide } from '../decide';
import { goLiveChecks } from '../go-live-gate';
import { evolve, type Merchant, type MerchantStateOrNone, type MerchantStreamEvent } from '../merchant';
import { decideCompliance, type UploadMerchantComplianceDocument } from './compliance-decide';
import { MERCHANT_COMPLIANCE_EVENT_TYPES, type MerchantComplianceEvent } from './compliance-events';
import {
  COMPLIANCE_DOCUMENT_TYPES,
  decodeBase64,
  DOCUMENT_MAX_BYTES,
  fileNameProblem,
  sniffContentType,
  validateDocumentUpload,
} from './documents';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

const body = (overrides: Record<string, unknown> = {}) => ({
  document_type: 'VOIDED_CHECK',
  file_name: 'check.pdf',
  content_type: 'application/pdf',
  content_base64: PDF.toString('base64'),
  ...overrides,
});
const fields = (input: unknown) => {
  const result = validateDocumentUpload(input);
  return result.ok ? [] : result.errors.map((e) => e.field);
};

describe('compliance document uploads', () => {
  it('accepts a PDF, a PNG and a JPEG whose bytes match the declared type, and decodes them', () => {
    for (const [contentType, bytes] of [
      ['application/pdf', PDF],
      ['image/png', PNG],
      ['image/jpeg', JPEG],
    ] as const) {
      const result = validateDocumentUpload(
        body({ content_type: contentType, content_base64: bytes.toString('base64') }),
      );
      expect(result).toEqual({
        ok: true,
        upload: {
          documentType: 'VOIDED_CHECK',
          fileName: 'check.pdf',
          contentType,
          content: new Uint8Array(bytes),
        },
      });
    }
    expect(COMPLIANCE_DOCUMENT_TYPES).toHaveLength(8);
  });

  it('names every missing field and every unknown one', () => {
    expect(fields({}).sort()).toEqual(['content_base64', 'content_type', 'document_type', 'file_name']);
    expect(fields(body({ extra: 1 }))).toEqual(['extra']);
    expect(fields(null)).toEqual(['body']);
    expect(fields([])).toEqual(['body']);
  });

  it('refuses unknown document and content types', () => {
    expect(fields(body({ document_type: 'PASSPORT' }))).toEqual(['document_type']);
    expect(fields(body({ document_type: 'baa_signed' }))).toEqual(['document_type']);
    expect(fields(body({ content_type: 'application/zip' }))).toEqual(['content_type']);
    expect(fields(body({ content_type: 'text/plain' }))).toEqual(['content_type']);
  });

  it('refuses content whose signature is not the declared type', () => {
    expect(fields(body({ content_base64: PNG.toString('base64') }))).toEqual(['content_base64']);
    expect(fields(body({ content_type: 'image/png' }))).toEqual(['content_base64']);
    expect(fields(body({ content_type: 'image/jpeg' }))).toEqual(['content_base64']);
    const result = validateDocumentUpload(body({ content_base64: Buffer.from('hello').toString('base64') }));
    expect(result.ok ? null : result.errors[0].message).toMatch(/file signature/);
    expect(sniffContentType(new Uint8Array([0x25, 0x50, 0x44]))).toBeNull();
  });

  it('refuses bad base64, empty content and content over 512 KiB', () => {
    expect(fields(body({ content_base64: 'not base64!' }))).toEqual(['content_base64']);
    expect(fields(body({ content_base64: `${PDF.toString('base64')}\n` }))).toEqual(['content_base64']);
    expect(fields(body({ content_base64: 'JVBERi0' }))).toEqual(['content_base64']); // no padding
    expect(fields(body({ content_base64: '' }))).toEqual(['content_base64']);
    expect(fields(body({ content_base64: 42 }))).toEqual(['content_base64']);
    const atLimit = Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES - PDF.length)]);
    expect(fields(body({ content_base64: atLimit.toString('base64') }))).toEqual([]);
    const over = Buffer.concat([atLimit, Buffer.from([0])]);
    expect(fields(body({ content_base64: over.toString('base64') }))).toEqual(['content_base64']);
  });

  it('decodes standard base64 exactly as Node does', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 73 + length) & 0xff));
      expect(Buffer.from(decodeBase64(bytes.toString('base64'))!)).toEqual(bytes);
    }
    expect(decodeBase64('ab-_')).toBeNull();
    expect(decodeBase64('a===')).toBeNull();
  });

  it('checks file names: length, path separators, control characters', () => {
    expect(fileNameProblem('Signed BAA (final).pdf')).toBeNull();
    expect(fileNameProblem('Überweisung.pdf')).toBeNull();
    expect(fileNameProblem('x'.repeat(255))).toBeNull();
    expect(fileNameProblem('x'.repeat(256))).toMatch(/255/);
    for (const bad of ['', '   ', '../etc/passwd', 'a/b.pdf', 'a\\b.pdf', 'a\u0000.pdf', 'a\nb.pdf', '..']) {
      expect([bad, fileNameProblem(bad)]).toEqual([bad, expect.any(String)]);
    }
    expect(fields(body({ file_name: 7 }))).toEqual(['file_name']);
  });
});

describe('compliance documents on the merchant', () => {
  const at = new Date('2026-11-01T10:00:00.000Z');
  const created = (hipaaBaaStatus: 'REQUIRED' | 'NOT_REQUIRED'): MerchantStreamEvent => ({
    type: 'MerchantCreated',
    data: {
      merchantId: 'm1',
      partnerId: 'p1',
      businessName: 'Sunrise Clinic',
      contactEmail: 'a@clinic.test',
      contactName: 'Ana',
      authorizedSignerName: null,
      authorizedSignerEmail: null,
      merchantCategoryCode: '8011',
      channel: 'CNP_ONLY',
      locationCount: null,
      hipaaBaaStatus,
      resubmissionLimit: 3,
      createdAt: at.toISOString(),
    },
  });
  const upload = (documentId: string, documentType: string): UploadMerchantComplianceDocument => ({
    type: 'UploadMerchantComplianceDocument',
    merchantId: 'm1',
    documentId,
    documentType: documentType as UploadMerchantComplianceDocument['documentType'],
    fileName: 'baa.pdf',
    contentType: 'application/pdf',
    sizeBytes: 1234,
    sha256: 'ab'.repeat(32),
    at,
  });
  const fold = (events: MerchantStreamEvent[], from: MerchantStateOrNone = null) =>
    events.reduce<MerchantStateOrNone>(evolve, from) as Merchant;
  const run = (merchant: Merchant, command: UploadMerchantComplianceDocument) =>
    fold(decide(command, merchant), merchant);

  it('records metadata only, and lists newest first', () => {
    const merchant = fold([created('NOT_REQUIRED')]);
    const events = decide(upload('d1', 'VOIDED_CHECK'), merchant);
    expect(events).toEqual([
      {
        type: 'MerchantComplianceDocumentUploaded',
        data: {
          merchantId: 'm1',
          partnerId: 'p1',
          documentId: 'd1',
          documentType: 'VOIDED_CHECK',
          fileName: 'baa.pdf',
          contentType: 'application/pdf',
          sizeBytes: 1234,
          sha256: 'ab'.repeat(32),
          uploadedAt: at.toISOString(),
        },
      },
    ]);
    const after = run(run(merchant, upload('d1', 'VOIDED_CHECK')), upload('d2', 'BANK_STATEMENT'));
    expect(after.version).toBe(3);
    expect(after.complianceDocuments!.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(after.hipaaBaaStatus).toBe('NOT_REQUIRED');
    // A retried upload (same document id) records nothing.
    expect(decide(upload('d1', 'VOIDED_CHECK'), after)).toEqual([]);
  });

  it('a signed BAA turns REQUIRED into SIGNED and passes the gate check', () => {
    const merchant = fold([created('REQUIRED')]);
    const gate = (m: Merchant) =>
      goLiveChecks(m, { environment: 'sandbox', partnerCertificationStatus: 'PENDING' }).find(
        (c) => c.code === 'hipaa_baa_signed',
      );
    expect(gate(merchant)?.passed).toBe(false);
    const other = run(merchant, upload('d1', 'GOVERNMENT_ID'));
    expect(other.hipaaBaaStatus).toBe('REQUIRED');
    const signed = run(other, upload('d2', 'BAA_SIGNED'));
    expect(signed.hipaaBaaStatus).toBe('SIGNED');
    expect(gate(signed)).toMatchObject({ passed: true, detail: 'the signed BAA was uploaded' });
    // A BAA for a merchant that needs none changes nothing.
    expect(run(fold([created('NOT_REQUIRED')]), upload('d3', 'BAA_SIGNED')).hipaaBaaStatus).toBe(
      'NOT_REQUIRED',
    );
  });

  it('a new MCC recomputes the status; the same MCC again keeps SIGNED', () => {
    const signed = run(fold([created('REQUIRED')]), upload('d1', 'BAA_SIGNED'));
    const update = (merchantCategoryCode: string, hipaaBaaStatus: 'REQUIRED' | 'NOT_REQUIRED') =>
      fold(
        decide(
          { type: 'UpdateMerchant', merchantId: 'm1', changes: { merchantCategoryCode, hipaaBaaStatus }, at },
          signed,
        ),
        signed,
      );
    expect(update('8011', 'REQUIRED').hipaaBaaStatus).toBe('SIGNED');
    expect(update('8021', 'REQUIRED').hipaaBaaStatus).toBe('REQUIRED');
    expect(update('5812', 'NOT_REQUIRED').hipaaBaaStatus).toBe('NOT_REQUIRED');
  });

  it('folds a snapshot taken before documents existed', () => {
    const { complianceDocuments: _dropped, ...old } = fold([created('REQUIRED')]);
    const after = run(old as Merchant, upload('d1', 'BAA_SIGNED'));
    expect(after.complianceDocuments.map((d) => d.id)).toEqual(['d1']);
  });

  it('refuses uploads once the merchant is CLOSED', () => {
    const closed = { ...fold([created('REQUIRED')]), state: 'CLOSED' as const };
    expect(() => decideCompliance(upload('d1', 'OTHER'), closed)).toThrow(
      new InvalidStateTransition('merchant', 'CLOSED', 'upload_compliance_document'),
    );
  });

  it('lists every compliance event type', () => {
    const all: Record<MerchantComplianceEvent['type'], true> = {
      MerchantSaqTypeRecorded: true,
      MerchantComplianceDocumentUploaded: true,
    };
    expect([...MERCHANT_COMPLIANCE_EVENT_TYPES].sort()).toEqual(Object.keys(all).sort());
  });
});
