import { describe, expect, it } from 'vitest';
import { closestRefLength, corpusBleu, sentenceBleu, tokenize13a } from './bleu.js';

describe('tokenize13a (mteval-v13a)', () => {
  it.each([
    ['Hello, world!', 'Hello , world !'],
    ['end.', 'end .'],
    ['1,000.5 units', '1,000.5 units'],
    ['3-4 a-b', '3 - 4 a-b'],
    ['x,y', 'x , y'],
    ['&quot;q&quot; &amp; &lt;b&gt;', '" q " & < b >'],
    ['line-\nbreak\nnext  ', 'linebreak next'],
    ['{"a":[1,2]}', '{ " a " : [ 1,2 ] }'],
    ['a<skipped>b', 'ab'],
  ])('%j -> %j', (text, tokens) => {
    expect(tokenize13a(text)).toBe(tokens);
  });
});

describe('BLEU as sacrebleu computes it', () => {
  it('corpus BLEU-1: clipped unigram precision', () => {
    const r = corpusBleu(['the cat sat on the mat'], [['the cat is on the mat']], { maxNgramOrder: 1 });
    expect(r.score).toBeCloseTo((100 * 5) / 6, 12);
    expect(r.bp).toBe(1);
  });

  it('brevity penalty exp(1 - r/c)', () => {
    const r = corpusBleu(['the cat'], [['the cat sat on the mat']], { maxNgramOrder: 1 });
    expect(r.score).toBeCloseTo(100 * Math.exp(-2), 12);
  });

  it('pools statistics over the corpus (not a mean of sentences)', () => {
    // seg 1: 1/2 matches, len 2 vs 2; seg 2: 2/2, len 2 vs 4. Pooled p1 = 3/4, c = 4, r = 6.
    const r = corpusBleu(['a x', 'b c'], [['a b', 'b c d e']], { maxNgramOrder: 1 });
    expect(r.score).toBeCloseTo(75 * Math.exp(1 - 6 / 4), 12);
  });

  it('exp smoothing of zero-match orders', () => {
    // p = 3/4, 1/3, 0/2 -> 100/(2*2), 0/1 -> 100/(4*1): (75 * 33.3 * 25 * 25)^(1/4) = sqrt(1250).
    expect(corpusBleu(['a b c d'], [['a b x d']]).score).toBeCloseTo(Math.sqrt(1250), 10);
  });

  it('sentence BLEU uses the effective order', () => {
    const r = sentenceBleu('the cat', ['the cat sat']);
    expect(r.score).toBeCloseTo(100 * Math.exp(1 - 3 / 2), 12);
    expect(corpusBleu(['the cat'], [['the cat sat']]).score).toBeLessThan(1e-10); // log(0) floor
  });

  it('returns 0 without any match and takes the closest reference (ties: shorter)', () => {
    expect(sentenceBleu('x y', ['a b']).score).toBe(0);
    expect(closestRefLength(5, [3, 7, 8])).toBe(3);
    expect(closestRefLength(5, [6, 4])).toBe(4);
    // Multiple references: counts clipped by the max over references.
    expect(sentenceBleu('a a b', ['a b', 'a a c'], { maxNgramOrder: 1 }).score).toBeCloseTo(100, 12);
  });
});

describe('sacrebleu reference handling', () => {
  it('ignores an empty reference when the segment has a non-empty one', () => {
    // With the empty reference counted, the closest length would be 0 -> BP 1 either way; use a
    // longer hypothesis against refs "" and "a b c d": closest non-empty length is 4.
    expect(sentenceBleu('a b', ['', 'a b c d'], { maxNgramOrder: 1 }).score).toBeCloseTo(100 * Math.exp(1 - 4 / 2), 12);
  });
});
