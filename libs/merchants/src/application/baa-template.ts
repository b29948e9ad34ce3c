/**
 * `GET /merchants/{id}/compliance/baa-template`: a HIPAA business associate agreement, as a PDF
 * the merchant (the covered entity) signs and uploads back as a `BAA_SIGNED` compliance document.
 *
 * The text paraphrases the sample business associate agreement provisions published by the U.S.
 * Department of Health and Human Services (public-domain guidance), adapted to payment services.
 * The PDF itself is written by the platform's small text-document writer (`platform/src/pdf`).
 */

import { textDocumentPdf, type Block } from '../../../platform/src/pdf/text-pdf';

export interface BaaTemplateInput {
  merchantId: string;
  businessName: string;
  authorizedSignerName: string | null;
  generatedAt: Date;
}

// ---------------------------------------------------------------------------------------------
// The agreement

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

/** The merchant's BAA template as a PDF file. */
export function baaTemplatePdf(input: BaaTemplateInput): Buffer {
  return textDocumentPdf(
    agreement(input),
    {
      title: 'HIPAA Business Associate Agreement',
      subject: `BAA template for ${input.businessName} (${input.merchantId})`,
      producer: 'partner-payments baa-template',
      at: input.generatedAt,
    },
    `HIPAA Business Associate Agreement - ${input.businessName} - merchant ${input.merchantId}`,
  );
}
