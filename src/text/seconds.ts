/** Milliseconds as the seconds of a message, to a tenth: 30000 → "30", 300 → "0.3", 1049 → "1". */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
