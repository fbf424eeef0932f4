/**
 * Strings to compare a written-out text rule with the regular expression it states: every string
 * up to `maxLength` over a small alphabet chosen at the rule's edges, then random longer ones
 * (a fixed seed, so a failure repeats).
 */
export function sampleStrings(alphabet: readonly string[], maxLength: number, randomCount = 2000): string[] {
  const out = [''];
  let layer = [''];
  for (let length = 1; length <= maxLength; length++) {
    layer = layer.flatMap((prefix) => alphabet.map((c) => prefix + c));
    out.push(...layer);
  }
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  for (let i = 0; i < randomCount; i++) {
    const length = Math.floor(next() * 80);
    let text = '';
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
    out.push(text);
  }
  return out;
}
