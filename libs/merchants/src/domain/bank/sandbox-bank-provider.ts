/**
 * The sandbox bank-verification provider (a real one would send micro-deposits or query an
 * account-validation service). Deterministic so partners can test each outcome:
 * - an account number ending in `0000` FAILS ("account not found");
 * - an account number ending in `1111` FAILS ("account closed");
 * - any other account is PENDING until 60 seconds of (sandbox) clock time after it was set,
 *   then VERIFIED (advance the sandbox clock to skip the wait).
 */
export const SANDBOX_VERIFICATION_DELAY_SECONDS = 60;

export function sandboxBankVerification(
  accountNumber: string,
  submittedAt: Date,
  now: Date,
): { status: 'PENDING' | 'VERIFIED' | 'FAILED'; failureReason: string | null } {
  if (accountNumber.endsWith('0000'))
    return { status: 'FAILED', failureReason: 'account not found (sandbox)' };
  if (accountNumber.endsWith('1111')) return { status: 'FAILED', failureReason: 'account closed (sandbox)' };
  const elapsed = (now.getTime() - submittedAt.getTime()) / 1000;
  return elapsed >= SANDBOX_VERIFICATION_DELAY_SECONDS
    ? { status: 'VERIFIED', failureReason: null }
    : { status: 'PENDING', failureReason: null };
}
