import { z } from 'zod';
import { Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import { plainTextProblem } from '../../../../platform/src/validation/plain-text';
import type { FieldError } from '../custom-fields/custom-field-errors';

/**
 * Compliance documents of a merchant (`POST /merchants/{id}/compliance-documents`). The content
 * is sealed at rest outside the event store; events and the merchant carry only the metadata
 * (`DocumentMeta`). A `BAA_SIGNED` upload is the signed HIPAA business associate agreement.
 */
export const COMPLIANCE_DOCUMENT_TYPES = [
  'BAA_SIGNED',
  'VOIDED_CHECK',
  'BANK_STATEMENT',
  'BUSINESS_LICENSE',
  'GOVERNMENT_ID',
  'PROCESSING_STATEMENT',
  'ARTICLES_OF_INCORPORATION',
  'OTHER',
] as const;
export type ComplianceDocumentType = (typeof COMPLIANCE_DOCUMENT_TYPES)[number];

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** Decoded bytes. Base64 makes it about 683 KiB of JSON: well under the 1 MiB body limit. */
export const DOCUMENT_MAX_BYTES = 512 * 1024;
export const FILE_NAME_MAX_LENGTH = 255;

/** The body's keys; any other is refused. */
export const DOCUMENT_UPLOAD_KEYS = ['document_type', 'file_name', 'content_type', 'content_base64'] as const;

/** What the merchant keeps of an upload (never the content). */
export interface DocumentMeta {
  id: string;
  documentType: ComplianceDocumentType;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  /** Lowercase hex SHA-256 of the decoded content. */
  sha256: string;
  uploadedAt: string;
}

/** A validated upload body: the decoded content and what it claims to be. */
export interface DocumentUpload {
  documentType: ComplianceDocumentType;
  fileName: string;
  contentType: DocumentContentType;
  content: Uint8Array;
}

export type DocumentUploadValidation =
  { ok: true; upload: DocumentUpload } | { ok: false; errors: FieldError[] };

const SIGNATURES: readonly { contentType: DocumentContentType; bytes: readonly number[] }[] = [
  { contentType: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { contentType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { contentType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** The accepted type the bytes start like (their magic number), or null. */
export function sniffContentType(content: Uint8Array): DocumentContentType | null {
  const match = SIGNATURES.find(
    ({ bytes }) => content.length >= bytes.length && bytes.every((byte, i) => content[i] === byte),
  );
  return match?.contentType ?? null;
}

export const isComplianceDocumentType = (value: unknown): value is ComplianceDocumentType =>
  typeof value === 'string' && (COMPLIANCE_DOCUMENT_TYPES as readonly string[]).includes(value);

export const isDocumentContentType = (value: unknown): value is DocumentContentType =>
  typeof value === 'string' && (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(value);

const PATH_SEPARATOR = /[/\\]/;

/** Why `fileName` is refused, or null. Length counts characters (code points). */
export function fileNameProblem(fileName: string): string | null {
  const length = [...fileName].length;
  if (length === 0 || fileName.trim() === '') return 'must not be blank';
  if (length > FILE_NAME_MAX_LENGTH) return `must be at most ${FILE_NAME_MAX_LENGTH} characters`;
  if (PATH_SEPARATOR.test(fileName)) return 'must be a bare file name, without / or \\';
  // Controls and bidi overrides (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`): plain-text.ts.
  const unsafe = plainTextProblem(fileName);
  if (unsafe) return unsafe;
  if (fileName === '.' || fileName === '..') return 'must be a file name';
  return null;
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Map([...BASE64_ALPHABET].map((char, index) => [char, index]));
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Length in bytes of what a well-formed base64 text decodes to. */
export function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** Standard base64 with padding (RFC 4648 §4), nothing else (no whitespace, no URL alphabet). */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  const out = new Uint8Array(base64DecodedLength(text));
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const a = BASE64_VALUES.get(text[i])!;
    const b = BASE64_VALUES.get(text[i + 1])!;
    const c = BASE64_VALUES.get(text[i + 2]);
    const d = BASE64_VALUES.get(text[i + 3]);
    const word = (a << 18) | (b << 12) | ((c ?? 0) << 6) | (d ?? 0);
    out[o++] = (word >> 16) & 0xff;
    if (c !== undefined) out[o++] = (word >> 8) & 0xff;
    if (d !== undefined) out[o++] = word & 0xff;
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every broken rule of an upload body `{document_type, file_name, content_type, content_base64}`
 * (paths are the body's keys), or the decoded upload. The content must be 1 byte to 512 KiB
 * decoded and must start with the magic number of the declared `content_type`.
 */
export function validateDocumentUpload(body: unknown): DocumentUploadValidation {
  if (!isObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });

  for (const key of Object.keys(body)) {
    if (!(DOCUMENT_UPLOAD_KEYS as readonly string[]).includes(key)) fail(key, 'is not a known field');
  }

  const { document_type: documentType, file_name: fileName, content_type: contentType } = body;
  if (documentType == null) fail('document_type', 'is required');
  else if (!isComplianceDocumentType(documentType))
    fail('document_type', `must be one of ${COMPLIANCE_DOCUMENT_TYPES.join(', ')}`);

  if (fileName == null) fail('file_name', 'is required');
  else if (typeof fileName !== 'string') fail('file_name', 'must be a string');
  else {
    const problem = fileNameProblem(fileName);
    if (problem) fail('file_name', problem);
  }

  if (contentType == null) fail('content_type', 'is required');
  else if (!isDocumentContentType(contentType))
    fail('content_type', `must be one of ${DOCUMENT_CONTENT_TYPES.join(', ')}`);

  const encoded = body.content_base64;
  let content: Uint8Array | null = null;
  if (encoded == null) fail('content_base64', 'is required');
  else if (typeof encoded !== 'string') fail('content_base64', 'must be a base64 string');
  else if (encoded.length === 0) fail('content_base64', 'must not be empty');
  else if (encoded.length % 4 === 0 && base64DecodedLength(encoded) > DOCUMENT_MAX_BYTES)
    // Checked before decoding: no work for an oversized file.
    fail('content_base64', `must decode to at most ${DOCUMENT_MAX_BYTES} bytes (512 KiB)`);
  else {
    content = decodeBase64(encoded);
    if (!content) fail('content_base64', 'must be standard base64 with padding (RFC 4648), no whitespace');
    else if (isDocumentContentType(contentType)) {
      const sniffed = sniffContentType(content);
      if (sniffed !== contentType) {
        fail(
          'content_base64',
          sniffed
            ? `is ${sniffed} content, not the declared ${contentType}`
            : `does not start like ${contentType} content (its file signature is missing)`,
        );
      }
    }
  }

  if (errors.length > 0 || !content) return { ok: false, errors };
  return {
    ok: true,
    upload: {
      documentType: documentType as ComplianceDocumentType,
      fileName: fileName as string,
      contentType: contentType as DocumentContentType,
      content,
    },
  };
}

export const ComplianceDocumentSchema = z
  .strictObject({
    id: Uuid,
    document_type: z.enum(COMPLIANCE_DOCUMENT_TYPES),
    file_name: z.string(),
    content_type: z.enum(DOCUMENT_CONTENT_TYPES),
    size_bytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    uploaded_at: Timestamp,
  })
  .meta({ id: 'ComplianceDocument' });

/** A document as the API shows it: metadata only. */
export function toDocumentResource(meta: DocumentMeta): z.infer<typeof ComplianceDocumentSchema> {
  return {
    id: meta.id,
    document_type: meta.documentType,
    file_name: meta.fileName,
    content_type: meta.contentType,
    size_bytes: meta.sizeBytes,
    sha256: meta.sha256,
    uploaded_at: meta.uploadedAt,
  };
}
