// Deterministic stand-in models for testing the decode loops without ONNX: logits are a hash of
// exactly what the real attention pattern lets a position see, so a loop that feeds the wrong
// context, positions or cache gets different tokens. Test-only (not exported from the package).
import type { BidirectionalModel, BlockDecoder, BlockDiffusionModel, BlockItem, CausalDecoder, CausalItem, CausalModel } from './model.js';

function hashTokens(h: number, xs: readonly number[]): number {
  for (const x of xs) h = Math.imul(h ^ (x + 0x9e37), 0x85ebca6b) >>> 0;
  return h;
}

/** V logits from a seed: a few peaked tokens so confidences span (0, 1). */
function logitsFrom(seed: number, v: number, sharpness: number): Float32Array {
  const out = new Float32Array(v);
  let s = seed >>> 0;
  for (let i = 0; i < v; i++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6b43a9b5) >>> 0;
    out[i] = ((s >>> 8) / 2 ** 24) * sharpness;
  }
  return out;
}

export class FakeBlockModel implements BlockDiffusionModel {
  forwards = 0;
  constructor(
    readonly vocabSize: number,
    readonly blockLength: number,
    private readonly sharpness = 6,
  ) {}
  open(rows: number): BlockDecoder {
    const cache: number[][] = Array.from({ length: rows }, () => []);
    return {
      forward: async (items: readonly BlockItem[]) => {
        this.forwards++;
        const out: Float32Array[] = [];
        for (const it of items) {
          if (it.commit) {
            if (it.commit.length % this.blockLength !== 0) throw new Error('commit is not whole blocks');
            cache[it.row]!.push(...it.commit);
          }
          if (it.query) {
            const wanted = it.logitsOf ?? Array.from({ length: this.blockLength }, (_, i) => i);
            const l = new Float32Array(wanted.length * this.vocabSize);
            const base = hashTokens(hashTokens(17, cache[it.row]!), it.query);
            wanted.forEach((i, k) => l.set(logitsFrom(base + (cache[it.row]!.length + i) * 7919, this.vocabSize, this.sharpness), k * this.vocabSize));
            out.push(l);
          }
        }
        return out;
      },
      close: () => undefined,
    };
  }
}

export class FakeCausalModel implements CausalModel {
  constructor(
    readonly vocabSize: number,
    private readonly sharpness = 6,
  ) {}
  open(rows: number): CausalDecoder {
    const seqs: number[][] = Array.from({ length: rows }, () => []);
    return {
      forward: async (items: readonly CausalItem[]) =>
        items.map((it) => {
          seqs[it.row]!.push(...it.tokens);
          return logitsFrom(hashTokens(3, seqs[it.row]!), this.vocabSize, this.sharpness);
        }),
      close: () => undefined,
    };
  }
}

export class FakeBidirectionalModel implements BidirectionalModel {
  constructor(
    readonly vocabSize: number,
    private readonly sharpness = 6,
  ) {}
  async forward(canvases: readonly (readonly number[])[]): Promise<Float32Array[]> {
    return canvases.map((c) => {
      const h = hashTokens(5, c);
      const l = new Float32Array(c.length * this.vocabSize);
      for (let i = 0; i < c.length; i++) l.set(logitsFrom(h + i * 104729, this.vocabSize, this.sharpness), i * this.vocabSize);
      return l;
    });
  }
}
