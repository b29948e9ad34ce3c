import { metadataOf } from '../../../platform/src/http/request-metadata';
import { CommandBus } from '@nestjs/cqrs';
import { RunMerchantCommand } from '../application/merchant-commands';
import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerRoute } from '../../../platform/src/auth/access';
import type { PartnerPrincipal } from '../../../platform/src/auth/principal';
import { Clock } from '../../../platform/src/clock/clock';
import { CurrentPartner, idFor } from '../../../platform/src/http/request-metadata';
import { strictQuery } from '../../../platform/src/http/strict-query';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { UuidParam } from '../../../platform/src/http/uuid-param.pipe';
import { baaTemplatePdf } from '../application/baa-template';
import { DocumentStore } from '../application/document-store';
import { MerchantReader } from '../application/merchant-reader';
import {
  decideCompliance,
  type UploadMerchantComplianceDocument,
} from '../domain/compliance/compliance-decide';
import { toDocumentResource, validateDocumentUpload } from '../domain/compliance/documents';
import { CursorCodec, pageRequest, toPage } from '../../../platform/src/pagination/pagination';
import { Describe } from '../../../platform/src/openapi/describe';
import { pageOf } from '../../../platform/src/openapi/wire-schemas';
import { ComplianceDocumentSchema, DOCUMENT_MAX_BYTES } from '../domain/compliance/documents';
import { RaisesBodyLimits } from '../../../platform/src/http/content-type';

const DOCUMENT_LIST = 'compliance-documents';

/**
 * The body's fields, declared so the global pipe lets them through; their rules (types, sizes,
 * the file signature) are the domain's (validateDocumentUpload), which names every broken one.
 */
class UploadDocumentDto {
  @IsOptional()
  document_type?: unknown;
  @IsOptional()
  file_name?: unknown;
  @IsOptional()
  content_type?: unknown;
  @IsOptional()
  content_base64?: unknown;
}

/**
 * Compliance documents (metadata list, upload sealed at rest) and the HIPAA BAA template. The
 * merchant must be the partner's own: any other id is 404 `merchant_not_found` on every route.
 */
@Controller('merchants/:merchantId')
export class ComplianceDocumentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantReader,
    private readonly documents: DocumentStore,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
  ) {}

  /**
   * Metadata only, newest first, paged like every list (`cursor`, `page_size`). A merchant's
   * documents are few and live on its aggregate; the key is a document's place in upload order,
   * which never changes, so a page never shifts when another document arrives.
   */
  @Get('compliance-documents')
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'The merchant’s compliance documents (metadata only), newest first',
    response: pageOf(ComplianceDocumentSchema),
    paged: true,
  })
  async list(
    @Param('merchantId', UuidParam) merchantId: string,
    @Query() query: Record<string, unknown>,
    @CurrentPartner() caller: PartnerPrincipal,
  ) {
    strictQuery(query, {}); // no filters: only cursor and page_size
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const scope = `partner:${caller.partnerId}:merchant:${merchantId}`;
    const page = pageRequest(query, this.cursors, DOCUMENT_LIST, scope);
    const documents = merchant.complianceDocuments ?? [];
    const before = page.after === null ? documents.length : Number(page.after);
    const rows = documents
      .map((document, place) => ({ document, place }))
      .filter((row) => row.place < before)
      .reverse()
      .slice(0, page.pageSize + 1);
    return toPage(
      rows,
      page,
      documents.length,
      (row) => String(row.place),
      (row) => toDocumentResource(row.document),
      (key) => this.cursors.encode(DOCUMENT_LIST, scope, key),
    );
  }

  /**
   * 201 with the document's metadata. The sealed content is stored first, then the event is
   * appended: an event never names missing content (see DocumentStore). The id derives from the
   * idempotency record, so a retried request stores and records the same document once.
   */
  @Post('compliance-documents')
  @PartnerRoute('merchant:write')
  // `content_base64`: 512 KiB of content is 699,052 base64 characters.
  @RaisesBodyLimits({ maxStringLength: Math.ceil(DOCUMENT_MAX_BYTES / 3) * 4 })
  @Describe({
    summary: 'Upload a compliance document (base64; sealed at rest)',
    response: ComplianceDocumentSchema,
    errors: [409, 422],
  })
  async upload(
    @Param('merchantId', UuidParam) merchantId: string,
    @Body() body: UploadDocumentDto,
    @CurrentPartner() caller: PartnerPrincipal,
    @Req() request: FastifyRequest,
  ) {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const validation = validateDocumentUpload(body);
    if (!validation.ok) throw validationProblem(validation.errors);
    const { upload } = validation;
    const content = Buffer.from(upload.content.buffer, upload.content.byteOffset, upload.content.byteLength);
    const documentId = idFor(request.commandId, 'compliance-document', randomUUID);
    const command = (sha256: string): UploadMerchantComplianceDocument => ({
      type: 'UploadMerchantComplianceDocument',
      merchantId,
      documentId,
      documentType: upload.documentType,
      fileName: upload.fileName,
      contentType: upload.contentType,
      sizeBytes: content.length,
      sha256,
      at: this.clock.now(),
    });
    // Refusals (a CLOSED merchant) before anything is stored; the handler decides again on append.
    decideCompliance(command(''), merchant);
    const sha256 = await this.documents.put(merchantId, caller.partnerId, documentId, content);
    const { at: _at, ...input } = command(sha256);
    const result = await this.commands.execute(
      new RunMerchantCommand(input, metadataOf(request, caller.partnerId)),
    );
    const stored = result.state.complianceDocuments.find((d) => d.id === documentId);
    if (!stored) throw new Error(`compliance document ${documentId} was not recorded`);
    return toDocumentResource(stored);
  }

  /** The HIPAA business associate agreement to sign, as a PDF naming the merchant. */
  @Get('compliance/baa-template')
  @PartnerRoute('merchant:read')
  @Describe({
    summary: 'The HIPAA business associate agreement template (PDF)',
    response: {
      mediaType: 'application/pdf',
      schema: { type: 'string', contentMediaType: 'application/pdf' },
    },
  })
  async baaTemplate(
    @Param('merchantId', UuidParam) merchantId: string,
    @CurrentPartner() caller: PartnerPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const merchant = await this.merchants.getForPartner(merchantId, caller.partnerId);
    const pdf = baaTemplatePdf({
      merchantId: merchant.id,
      businessName: merchant.businessName,
      authorizedSignerName: merchant.authorizedSignerName,
      generatedAt: this.clock.now(),
    });
    void reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="baa-template-${merchant.id}.pdf"`)
      .header('cache-control', 'no-store');
    return pdf;
  }
}
