/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DocumentStore } from '../../libs/merchants/src/application/document-store';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

/** A small, real PDF (one page, one line of text) carrying a marker no other byte string has. */
function smallPdf(marker: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${marker}) Tj ET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}endstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('compliance documents and the HIPAA BAA template', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let other: TestPartner;
  beforeAll(async () => {
    partner = await platform().newPartner();
    other = await platform().newPartner({ name: 'Nosy Software' });
  });

  const createMerchant = async (body: Record<string, unknown> = {}) => {
    const res = await partner.client.post('/merchants', {
      business_name: 'Sunrise Family Clinic',
      contact_email: 'office@sunrise.test',
      contact_name: 'Ana Ruiz',
      merchant_category_code: '5812',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const docs = (merchantId: string) => `/merchants/${merchantId}/compliance-documents`;
  const upload = (merchantId: string, fields: Record<string, unknown>, options = {}) =>
    partner.client.post(docs(merchantId), fields, options);
  /** Raw bytes: the JSON client would decode a PDF as text. */
  const download = async (client: TestPartner, path: string) => {
    const res = await platform().service.call('GET', `/api/v1${path}`, {
      headers: { authorization: `Bearer ${client.key}` },
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const sealedRows = async (merchantId: string) =>
    (
      await platform().service.infra.pool.query<{
        id: string;
        partner_id: string;
        sealed: Buffer;
        sha256: string;
      }>('select id, partner_id, sealed, sha256 from platform.merchant_documents where merchant_id = $1', [
        merchantId,
      ])
    ).rows;

  it('uploads a PDF and a PNG, lists their metadata newest first, and stores them sealed', async () => {
    const merchant = await createMerchant();
    const marker = `VOIDED-CHECK-${randomUUID()}`;
    const pdf = smallPdf(marker);
    const first = await upload(merchant.id, {
      document_type: 'VOIDED_CHECK',
      file_name: 'voided check.pdf',
      content_type: 'application/pdf',
      content_base64: pdf.toString('base64'),
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(UUID),
      document_type: 'VOIDED_CHECK',
      file_name: 'voided check.pdf',
      content_type: 'application/pdf',
      size_bytes: pdf.length,
      sha256: sha256(pdf),
      uploaded_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const second = await upload(merchant.id, {
      document_type: 'GOVERNMENT_ID',
      file_name: 'id.png',
      content_type: 'image/png',
      content_base64: PNG.toString('base64'),
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      content_type: 'image/png',
      size_bytes: PNG.length,
      sha256: sha256(PNG),
    });

    const list = await partner.client.get(docs(merchant.id));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [second.body, first.body],
      pagination: { next_cursor: null, has_more: false, total_count: 2 },
    });
    expect(JSON.stringify(list.body)).not.toContain(pdf.toString('base64'));
    // Paged like every list: one at a time, newest first, then the rest by the cursor.
    const one = await partner.client.get(`${docs(merchant.id)}?page_size=1`);
    expect(one.body).toMatchObject({
      data: [second.body],
      pagination: { has_more: true, total_count: 2, next_cursor: expect.any(String) },
    });
    const rest = await partner.client.get(
      `${docs(merchant.id)}?page_size=1&cursor=${encodeURIComponent(one.body.pagination.next_cursor)}`,
    );
    expect(rest.body).toEqual({
      data: [first.body],
      pagination: { next_cursor: null, has_more: false, total_count: 2 },
    });
    expectValidationError(await partner.client.get(`${docs(merchant.id)}?page_size=0`), ['page_size']);
    expectValidationError(await partner.client.get(`${docs(merchant.id)}?cursor=forged`), ['cursor']);

    // At rest: sealed, bound to the merchant and the document; the plaintext is in no column.
    const rows = await sealedRows(merchant.id);
    expect(rows.map((r) => r.id).sort()).toEqual([first.body.id, second.body.id].sort());
    for (const row of rows) {
      expect(row.partner_id).toBe(partner.id);
      expect(row.sealed.includes(pdf)).toBe(false);
      expect(row.sealed.includes(Buffer.from(marker))).toBe(false);
      expect(row.sealed.includes(PNG)).toBe(false);
    }
    expect(rows.find((r) => r.id === first.body.id)?.sha256).toBe(sha256(pdf));
    const store = platform().service.app.get(DocumentStore);
    expect(await store.get(merchant.id, first.body.id)).toEqual(pdf);
    expect(await store.get(merchant.id, second.body.id)).toEqual(PNG);

    // The event store holds the metadata only.
    const { rows: events } = await platform().service.infra.pool.query<{ data: string }>(
      `select data::text as data from event_store.events where type = 'MerchantComplianceDocumentUploaded'
          and data->>'merchantId' = $1`,
      [merchant.id],
    );
    expect(events).toHaveLength(2);
    for (const { data } of events) {
      expect(Object.keys(JSON.parse(data)).sort()).toEqual(
        [
          'contentType',
          'documentId',
          'documentType',
          'fileName',
          'merchantId',
          'partnerId',
          'sha256',
          'sizeBytes',
          'uploadedAt',
        ].sort(),
      );
    }
    const { rows: leaks } = await platform().service.infra.pool.query(
      `select count(*)::int as n from event_store.events
        where data::text like '%' || $1 || '%' or data::text like '%' || $2 || '%'`,
      [marker, PNG.toString('base64').slice(0, 40)],
    );
    expect(leaks[0].n).toBe(0);
  });

  it('an idempotent retry records the same document once', async () => {
    const merchant = await createMerchant();
    const body = {
      document_type: 'BANK_STATEMENT',
      file_name: 'statement.pdf',
      content_type: 'application/pdf',
      content_base64: smallPdf('statement').toString('base64'),
    };
    const key = randomUUID();
    const first = await upload(merchant.id, body, { idempotencyKey: key });
    const again = await upload(merchant.id, body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await partner.client.get(docs(merchant.id))).body.data).toHaveLength(1);
    expect(await sealedRows(merchant.id)).toHaveLength(1);
  });

  it('refuses bad uploads with 400 naming the fields; over the body limit is 413', async () => {
    const merchant = await createMerchant();
    const good = {
      document_type: 'OTHER',
      file_name: 'doc.pdf',
      content_type: 'application/pdf',
      content_base64: smallPdf('x').toString('base64'),
    };
    // Declared type and file signature disagree, both ways.
    expectValidationError(await upload(merchant.id, { ...good, content_base64: PNG.toString('base64') }), [
      'content_base64',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, content_type: 'image/jpeg' }), [
      'content_base64',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, content_type: 'text/plain' }), [
      'content_type',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, document_type: 'PASSPORT' }), [
      'document_type',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, file_name: '../../etc/passwd' }), [
      'file_name',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, file_name: 'x'.repeat(256) }), ['file_name']);
    expectValidationError(await upload(merchant.id, { ...good, content_base64: 'not base64' }), [
      'content_base64',
    ]);
    expectValidationError(await upload(merchant.id, { ...good, owner: 'me' }), ['owner']);
    expectValidationError(await upload(merchant.id, {}), [
      'document_type',
      'file_name',
      'content_type',
      'content_base64',
    ]);

    // 512 KiB + 1 byte decoded: the body (~683 KiB) is read, the rule refuses it.
    const oversized = Buffer.concat([smallPdf('big'), randomBytes(512 * 1024)]).subarray(0, 512 * 1024 + 1);
    const tooBig = await upload(merchant.id, { ...good, content_base64: oversized.toString('base64') });
    expectValidationError(tooBig, ['content_base64']);
    expect(tooBig.body.errors[0].message).toMatch(/524288 bytes/);
    // Exactly 512 KiB is accepted.
    const atLimit = oversized.subarray(0, 512 * 1024);
    const accepted = await upload(merchant.id, { ...good, content_base64: atLimit.toString('base64') });
    expect([accepted.status, accepted.body.size_bytes]).toEqual([201, 512 * 1024]);
    // Over the 1 MiB body limit Fastify refuses the request before any handler: 413.
    const huge = Buffer.concat([smallPdf('huge'), randomBytes(800 * 1024)]);
    expectProblem(
      await upload(merchant.id, { ...good, content_base64: huge.toString('base64') }),
      413,
      'payload_too_large',
    );

    // Nothing refused was stored.
    expect((await partner.client.get(docs(merchant.id))).body.data).toHaveLength(1);
    expect(await sealedRows(merchant.id)).toHaveLength(1);
  });

  it('a CLOSED merchant takes no upload (409) and nothing is stored', async () => {
    const merchant = await createMerchant();
    const closed = await platform().operator.post(`/platform/merchants/${merchant.id}/transitions`, {
      action: 'close',
      reason: 'test',
    });
    expect(closed.status).toBe(200);
    expectProblem(
      await upload(merchant.id, {
        document_type: 'OTHER',
        file_name: 'late.png',
        content_type: 'image/png',
        content_base64: PNG.toString('base64'),
      }),
      409,
      'invalid_state_transition',
    );
    expect(await sealedRows(merchant.id)).toHaveLength(0);
  });

  it('another partner gets 404 merchant_not_found on every route; an unknown merchant too', async () => {
    const merchant = await createMerchant();
    for (const id of [merchant.id, randomUUID()]) {
      expectProblem(await other.client.get(docs(id)), 404, 'merchant_not_found');
      expectProblem(
        await other.client.post(docs(id), {
          document_type: 'OTHER',
          file_name: 'x.png',
          content_type: 'image/png',
          content_base64: PNG.toString('base64'),
        }),
        404,
        'merchant_not_found',
      );
      expectProblem(
        await other.client.get(`/merchants/${id}/compliance/baa-template`),
        404,
        'merchant_not_found',
      );
    }
    expect(await sealedRows(merchant.id)).toHaveLength(0);
  });

  it('a healthcare merchant downloads the BAA template, uploads it signed, and passes hipaa_baa_signed', async () => {
    const clinic = await createMerchant({
      business_name: 'Sunrise Pediatrics',
      merchant_category_code: '8011',
    });
    expect(clinic.hipaa_baa_status).toBe('REQUIRED');
    const baaCheck = async () =>
      (await partner.client.get(`/merchants/${clinic.id}/go-live-gate`)).body.checks.find(
        (c: any) => c.code === 'hipaa_baa_signed',
      );
    expect(await baaCheck()).toMatchObject({ passed: false });

    const template = await download(partner, `/merchants/${clinic.id}/compliance/baa-template`);
    expect(template.status).toBe(200);
    expect(template.headers.get('content-type')).toBe('application/pdf');
    expect(template.headers.get('content-disposition')).toBe(
      `attachment; filename="baa-template-${clinic.id}.pdf"`,
    );
    const text = template.bytes.toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain('(Sunrise Pediatrics) Tj');
    expect(text).toContain(`(${clinic.id}) Tj`);
    expect(text).toContain('(HIPAA Business Associate Agreement) Tj');

    // Another document type does not sign the BAA.
    await upload(clinic.id, {
      document_type: 'BUSINESS_LICENSE',
      file_name: 'license.png',
      content_type: 'image/png',
      content_base64: PNG.toString('base64'),
    });
    expect((await partner.client.get(`/merchants/${clinic.id}`)).body.hipaa_baa_status).toBe('REQUIRED');

    const signed = await upload(clinic.id, {
      document_type: 'BAA_SIGNED',
      file_name: 'baa-signed.pdf',
      content_type: 'application/pdf',
      content_base64: template.bytes.toString('base64'),
    });
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({ document_type: 'BAA_SIGNED', size_bytes: template.bytes.length });
    const read = await partner.client.get(`/merchants/${clinic.id}`);
    expect(read.body).toMatchObject({ hipaa_baa_status: 'SIGNED', version: 3 });
    expect(Object.keys(read.body)).not.toContain('compliance_documents');
    expect(await baaCheck()).toMatchObject({ passed: true, detail: 'the signed BAA was uploaded' });
    // The list read model folds the same way.
    const listed = await partner.client.get('/merchants?merchant_category_code=8011');
    expect(listed.body.data.map((m: any) => m.id)).toContain(clinic.id);
  });

  it('a PATCH to another healthcare MCC needs a new signed BAA; the same MCC keeps SIGNED', async () => {
    const clinic = await createMerchant({ merchant_category_code: '8011' });
    await upload(clinic.id, {
      document_type: 'BAA_SIGNED',
      file_name: 'baa.pdf',
      content_type: 'application/pdf',
      content_base64: smallPdf('signed').toString('base64'),
    });
    const same = await partner.client.patch(`/merchants/${clinic.id}`, { merchant_category_code: '8011' });
    expect(same.body.hipaa_baa_status).toBe('SIGNED');
    const moved = await partner.client.patch(`/merchants/${clinic.id}`, { merchant_category_code: '5812' });
    expect(moved.body.hipaa_baa_status).toBe('NOT_REQUIRED');
    const back = await partner.client.patch(`/merchants/${clinic.id}`, { merchant_category_code: '8011' });
    expect(back.body.hipaa_baa_status).toBe('REQUIRED');
  });
});
