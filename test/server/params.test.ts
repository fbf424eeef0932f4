/**
 * The one-pass parameter parser reads form and query text exactly as URLSearchParams does, and
 * keeps the service's rules on top: empty values count as omitted, a repeated name is refused.
 */
import { describe, expect, test } from 'vitest';
import { parseParams } from '../../src/server/http/params.js';

/** What URLSearchParams makes of the sources, with the same two rules applied. */
function reference(...sources: string[]): ReturnType<typeof parseParams> {
  const params = new Map<string, string>();
  for (const source of sources) {
    for (const [name, value] of new URLSearchParams(source)) {
      if (value === '') continue;
      if (params.has(name)) return { ok: false, duplicate: name };
      params.set(name, value);
    }
  }
  return { ok: true, params };
}

const SAMPLES = [
  '',
  'a=1',
  'a=1&b=2',
  'a&&b=&=x&c=1=2',
  '&&&',
  '+c+=d+e&%3D=%26',
  'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  'email=d%40example.com&password=p%C3%A4ss+word',
  'x=%zz%41%E2%82',
  'x=%E2%82%AC%',
  'x=%',
  'x=%4',
  'x=%%41',
  'é=ü&ñ=%C3%B1',
  'x=caf%E9',
  'x=%ED%A0%80',
  'x=%F0%9F%98%80&y=😀',
  'x=a;b=c',
  'x=%2B+%20',
  'a=1&a=',
  'a=&a=1',
  'a=1&a=2',
  'a=1&%61=2',
];

describe('parseParams', () => {
  test.each(SAMPLES)('reads %j as URLSearchParams does', (source) => {
    expect(parseParams(source)).toEqual(reference(source));
  });

  test('across sources: query and body together, a name in both refused', () => {
    expect(parseParams('a=1', 'b=2')).toEqual(reference('a=1', 'b=2'));
    expect(parseParams('a=1', 'a=2')).toEqual({ ok: false, duplicate: 'a' });
    expect(parseParams('a=', 'a=2')).toEqual(reference('a=', 'a=2'));
  });

  test('agrees with URLSearchParams on random text', () => {
    // A small seeded generator: the same cases on every run.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const pieces = [
      'a',
      'b',
      '=',
      '&',
      '+',
      '%',
      '%4',
      '%41',
      '%C3',
      '%A9',
      '%zz',
      'é',
      '😀',
      ';',
      ' ',
      '%25',
      '%26',
    ];
    for (let i = 0; i < 5000; i++) {
      let source = '';
      const length = next(12);
      for (let j = 0; j < length; j++) source += pieces[next(pieces.length)];
      expect(parseParams(source), JSON.stringify(source)).toEqual(reference(source));
    }
  });
});
