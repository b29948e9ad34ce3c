/**
 * NACHA return reason codes (Nacha Operating Rules, including the 2021 re-titling of R10, R11
 * and R17). Codes Nacha has retired or never assigned (R48, R49, R54–R60, R63–R66, R78, R79)
 * are left out, so an RDFI that sends one is visibly wrong rather than silently accepted.
 *
 * `severity`: only R01 and R09 are `soft`. Those are the two funding returns Nacha lets an
 * originator re-present (at most twice, within 180 days); every other code means the entry must
 * not be sent again as it stands, so it is `hard`.
 *
 * `unauthorized`: the codes Nacha counts toward the unauthorized return rate (0.5% threshold),
 * which is monitored separately from the overall and administrative return rates.
 */
export type ReturnSeverity = 'soft' | 'hard';

export interface NachaReturnCode {
  readonly code: string;
  readonly description: string;
  readonly severity: ReturnSeverity;
  readonly unauthorized: boolean;
}

const SOFT: ReadonlySet<string> = new Set(['R01', 'R09']);
const UNAUTHORIZED: ReadonlySet<string> = new Set(['R05', 'R07', 'R10', 'R11', 'R29', 'R51']);

const DESCRIPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['R01', 'Insufficient funds'],
  ['R02', 'Account closed'],
  ['R03', 'No account/unable to locate account'],
  ['R04', 'Invalid account number structure'],
  ['R05', 'Unauthorized debit to consumer account using corporate SEC code'],
  ['R06', "Returned per ODFI's request"],
  ['R07', 'Authorization revoked by customer'],
  ['R08', 'Payment stopped'],
  ['R09', 'Uncollected funds'],
  [
    'R10',
    "Customer advises originator is not known to receiver and/or originator is not authorized by receiver to debit receiver's account",
  ],
  ['R11', 'Customer advises entry not in accordance with the terms of the authorization'],
  ['R12', 'Account sold to another DFI'],
  ['R13', 'Invalid ACH routing number'],
  ['R14', 'Representative payee deceased or unable to continue in that capacity'],
  ['R15', 'Beneficiary or account holder (other than a representative payee) deceased'],
  ['R16', 'Account frozen/entry returned per OFAC instruction'],
  [
    'R17',
    'File record edit criteria/entry with invalid account number initiated under questionable circumstances/return of improperly-initiated reversal',
  ],
  ['R18', 'Improper effective entry date'],
  ['R19', 'Amount field error'],
  ['R20', 'Non-transaction account'],
  ['R21', 'Invalid company identification'],
  ['R22', 'Invalid individual ID number'],
  ['R23', 'Credit entry refused by receiver'],
  ['R24', 'Duplicate entry'],
  ['R25', 'Addenda error'],
  ['R26', 'Mandatory field error'],
  ['R27', 'Trace number error'],
  ['R28', 'Routing number check digit error'],
  ['R29', 'Corporate customer advises not authorized'],
  ['R30', 'RDFI not participant in check truncation program'],
  ['R31', 'Permissible return entry (CCD and CTX only)'],
  ['R32', 'RDFI non-settlement'],
  ['R33', 'Return of XCK entry'],
  ['R34', 'Limited participation DFI'],
  ['R35', 'Return of improper debit entry'],
  ['R36', 'Return of improper credit entry'],
  ['R37', 'Source document presented for payment'],
  ['R38', 'Stop payment on source document'],
  ['R39', 'Improper source document/source document presented for payment'],
  ['R40', 'Return of ENR entry by federal government agency (ENR only)'],
  ['R41', 'Invalid transaction code (ENR only)'],
  ['R42', 'Routing number/check digit error (ENR only)'],
  ['R43', 'Invalid DFI account number (ENR only)'],
  ['R44', 'Invalid individual ID number/identification number (ENR only)'],
  ['R45', 'Invalid individual name/company name (ENR only)'],
  ['R46', 'Invalid representative payee indicator (ENR only)'],
  ['R47', 'Duplicate enrollment (ENR only)'],
  ['R50', 'State law affecting RCK acceptance'],
  ['R51', 'Item related to RCK entry is ineligible or RCK entry is improper'],
  ['R52', 'Stop payment on item related to RCK entry'],
  ['R53', 'Item and RCK entry presented for payment'],
  ['R61', 'Misrouted return'],
  ['R62', 'Return of erroneous or reversing debit'],
  ['R67', 'Duplicate return'],
  ['R68', 'Untimely return'],
  ['R69', 'Field error(s)'],
  ['R70', 'Permissible return entry not accepted/return not requested by ODFI'],
  ['R71', 'Misrouted dishonored return'],
  ['R72', 'Untimely dishonored return'],
  ['R73', 'Timely original return'],
  ['R74', 'Corrected return'],
  ['R75', 'Return not a duplicate'],
  ['R76', 'No errors found'],
  ['R77', 'Non-acceptance of R62 dishonored return'],
  ['R80', 'IAT entry coding error'],
  ['R81', 'Non-participant in IAT program'],
  ['R82', 'Invalid foreign receiving DFI identification'],
  ['R83', 'Foreign receiving DFI unable to settle'],
  ['R84', 'Entry not processed by gateway'],
  ['R85', 'Incorrectly coded outbound international payment'],
];

export const NACHA_RETURN_CODES: readonly NachaReturnCode[] = Object.freeze(
  DESCRIPTIONS.map(([code, description]) =>
    Object.freeze({
      code,
      description,
      severity: SOFT.has(code) ? 'soft' : 'hard',
      unauthorized: UNAUTHORIZED.has(code),
    } satisfies NachaReturnCode),
  ),
);

const BY_CODE: ReadonlyMap<string, NachaReturnCode> = new Map(NACHA_RETURN_CODES.map((e) => [e.code, e]));

/** The entry for an exact, upper-case code (`R01`); `r01`, `R1`, ` R01` and unassigned codes are null. */
export function returnCode(code: string): NachaReturnCode | null {
  return BY_CODE.get(code) ?? null;
}

export function isReturnCode(value: unknown): value is string {
  return typeof value === 'string' && BY_CODE.has(value);
}
