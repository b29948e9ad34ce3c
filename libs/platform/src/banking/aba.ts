/**
 * ABA routing transit numbers: nine digits whose weighted sum (3, 7, 1 repeating) is a multiple
 * of ten. The checksum catches every single-digit error and most transpositions.
 */
export function isAbaRoutingNumber(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[0-9]{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}
