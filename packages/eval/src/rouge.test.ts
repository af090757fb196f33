import { describe, expect, it } from 'vitest';
import { pltrdySentences, rougeLPltrdy, rougeLScore, rougeScoreTokenize } from './rouge.js';

// F for P = R = x under pltrdy's formula 2PR/(P+R+1e-8).
const f = (p: number, r: number): number => 2 * ((p * r) / (p + r + 1e-8));

describe('rougeLPltrdy: PyPI rouge 1.0.1 semantics, worked by hand', () => {
  it('identical single sentences', () => {
    expect(rougeLPltrdy('the cat sat', 'the cat sat').f).toBe(f(1, 1));
  });

  it('splits sentences on every "." and takes the union of LCS tokens', () => {
    // ref sentences [a c], [b d]; hyp [a b], [c d]: unions {a, c} then {b, d}: llcs 4, m = n = 4.
    expect(rougeLPltrdy('a b. c d', 'a c. b d')).toEqual({ f: f(1, 1), p: 1, r: 1 });
  });

  it('counts unique tokens only', () => {
    expect(rougeLPltrdy('a a a', 'a').f).toBe(f(1, 1));
    // hyp distinct {x, y} = 2, ref distinct {x, z} = 2, LCS {x}: P = R = 0.5.
    expect(rougeLPltrdy('x y x y', 'x z z').f).toBe(f(0.5, 0.5));
  });

  it('fragments decimals: "3.14" vs "3.15" share only "3"', () => {
    expect(pltrdySentences('3.14')).toEqual([['3'], ['14']]);
    expect(rougeLPltrdy('3.14', '3.15').f).toBe(f(0.5, 0.5));
  });

  it('is case-sensitive and keeps punctuation on tokens', () => {
    expect(rougeLPltrdy('The cat', 'the cat!').f).toBe(0);
  });

  it('backtracks as the package does (up only when strictly greater, else left)', () => {
    // ref sentence [a b] vs hyp [b a]: the tie goes left and picks "b"; the 2nd ref sentence [a] adds "a".
    // Picking "a" first would give llcs 1 (F 0.5) instead of 2.
    expect(rougeLPltrdy('b a', 'a b. a').f).toBe(f(1, 1));
  });

  it('empty prediction becomes " " (one empty token); a text of dots raises and scores 0', () => {
    expect(pltrdySentences(' ')).toEqual([['']]);
    expect(rougeLPltrdy('', 'x').f).toBe(0);
    expect(rougeLPltrdy('', '').f).toBe(f(1, 1)); // " " vs " ": the empty token matches itself
    expect(rougeLPltrdy('...', 'a').f).toBe(0);
  });

  it('reproduces RecursionError at 990 backtrack steps under CPython 3.11 defaults', () => {
    const words = (k: number): string => Array.from({ length: k }, (_, i) => `w${i}`).join(' ');
    expect(rougeLPltrdy(words(989), words(989)).f).toBe(f(1, 1));
    expect(rougeLPltrdy(words(990), words(990)).f).toBe(0);
    expect(rougeLPltrdy(words(990), words(990), { recursionLimit: Infinity }).f).toBe(f(1, 1));
  });
});

describe('rougeLScore: rouge-score rougeL without stemming', () => {
  it('tokenises to lower-case ASCII alphanumerics', () => {
    expect(rougeScoreTokenize('The Café, 2x-fast!')).toEqual(['the', 'caf', '2x', 'fast']);
    expect(rougeScoreTokenize('世界')).toEqual([]);
  });

  it('uses the sentence-level LCS over all tokens', () => {
    const s = rougeLScore('The cat, sat!', 'the cat sat on the mat');
    expect(s.p).toBe(1);
    expect(s.r).toBe(0.5);
    expect(s.f).toBeCloseTo(2 / 3, 15);
    expect(rougeLScore('a b c d', 'a x c y d')).toEqual({ p: 0.75, r: 0.6, f: (2 * 0.75 * 0.6) / 1.35 });
  });

  it('is 0 when either side has no tokens', () => {
    expect(rougeLScore('', 'a')).toEqual({ f: 0, p: 0, r: 0 });
    expect(rougeLScore('a', '!!')).toEqual({ f: 0, p: 0, r: 0 });
  });
});
