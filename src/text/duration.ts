/** Durations as people read them ("58m 12s"), for messages of every layer. */

/** "58m 12s", "29d 23h", "45s"; the two largest units, as people read expiry times. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const units: Array<[string, number]> = [
    ['d', Math.floor(s / 86_400)],
    ['h', Math.floor((s % 86_400) / 3600)],
    ['m', Math.floor((s % 3600) / 60)],
    ['s', s % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  if (first === -1) return '0s';
  return units
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([unit, n]) => `${n}${unit}`)
    .join(' ');
}

/** The largest unit only ("59m", "29d"), for one-line summaries. */
export function formatDurationShort(totalSeconds: number): string {
  return formatDuration(totalSeconds).split(' ')[0] ?? '0s';
}
