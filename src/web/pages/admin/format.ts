// Sizes for people: 48213504 → "46.0 MB" (binary multiples, as disk tools show them; at most three digits before the
// point, so 1,027,481 bytes reads "1.0 MB", not "1,003.4 KB").
const UNITS = ["bytes", "KB", "MB", "GB", "TB"];

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 1000) return `${Math.max(0, Math.round(n)).toLocaleString()} bytes`;
  let v = n;
  let i = 0;
  while (v >= 1000 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${UNITS[i]}`;
}
