import { z } from 'zod';
/**
 * PCI DSS v4.0 self-assessment questionnaires (SAQs) a merchant may file, as the PCI Security
 * Standards Council defines them. `GET /onboarding/saq-types` serves this list; a merchant's
 * `pci_saq_type` is one of these codes.
 */
export const SaqTypeSchema = z
  .strictObject({ code: z.string(), name: z.string(), description: z.string() })
  .meta({ id: 'SaqType' });
export type SaqType = z.infer<typeof SaqTypeSchema>;

export const SAQ_TYPES: readonly SaqType[] = [
  {
    code: 'A',
    name: 'SAQ A',
    description:
      'Card-not-present merchants that fully outsource all cardholder data functions to PCI DSS compliant third parties (e.g. a hosted payment page or iframe), with no electronic storage, processing or transmission of cardholder data on their systems.',
  },
  {
    code: 'A-EP',
    name: 'SAQ A-EP',
    description:
      'E-commerce merchants that outsource payment processing but whose website can affect the security of the payment transaction (e.g. a direct post or JavaScript that builds the payment form).',
  },
  {
    code: 'B',
    name: 'SAQ B',
    description:
      'Merchants using only imprint machines or standalone dial-out terminals, with no electronic cardholder data storage.',
  },
  {
    code: 'B-IP',
    name: 'SAQ B-IP',
    description:
      'Merchants using only standalone, PTS-approved payment terminals with an IP connection to the payment processor, with no electronic cardholder data storage.',
  },
  {
    code: 'C',
    name: 'SAQ C',
    description:
      'Merchants with payment application systems connected to the internet, with no electronic cardholder data storage.',
  },
  {
    code: 'C-VT',
    name: 'SAQ C-VT',
    description:
      'Merchants that manually enter one transaction at a time through a keyboard into an internet-based virtual terminal hosted by a PCI DSS validated third party, with no electronic cardholder data storage.',
  },
  {
    code: 'P2PE',
    name: 'SAQ P2PE',
    description:
      'Merchants using only hardware payment terminals included in and managed by a validated, PCI-listed point-to-point encryption (P2PE) solution, with no electronic cardholder data storage.',
  },
  {
    code: 'SPoC',
    name: 'SAQ SPoC',
    description:
      'Merchants using a commercial off-the-shelf mobile device with a secure card reader that is part of a PCI-listed Software-based PIN entry on COTS (SPoC) solution.',
  },
  {
    code: 'D',
    name: 'SAQ D for Merchants',
    description:
      'All other merchants eligible to complete an SAQ, including those that store cardholder data electronically.',
  },
];

export function isSaqType(code: unknown): code is string {
  return typeof code === 'string' && SAQ_TYPES.some((t) => t.code === code);
}
