// The one byte-size formatter for the UI and the workers (import errors, quota messages, the
// network ledger, model sizes). Binary units, as the limits they describe are binary
// (50 MB = 50 × 1024² bytes): "512 B", "1.5 KB", "87.1 MB", "2.0 GB". Pure; imports nothing.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `n` bytes with one decimal above bytes; negative or non-finite input is shown as "0 B". */
export function formatBytes(n: number): string {
  let value = Number.isFinite(n) && n > 0 ? n : 0;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
