// A tiny BD3 world-model training problem for step-level tests: the objective spec, N batches of
// two fixed rows with fresh noise per step, and small random float32 initial weights.
import { Rng } from '@diffworld/dataset';
import { randn, rng } from './random.js';
import type { TransformerConfig } from '../nn/index.js';
import type { HostTensor } from '../runtime/index.js';
import { materialize } from '../train/data.js';
import { type ObjectiveSpec, objectiveFeeds, objectiveStepSpec } from '../train/objective.js';
import type { StepGraphSpec } from '../train/step.js';

export const TINY_BD3_MODEL: TransformerConfig = { vocabSize: 64, dModel: 32, nLayers: 2, nHeads: 2, nKvHeads: 1, ffnDim: 64, ropeTheta: 10000, rmsEps: 1e-6 };
export const TINY_BD3: ObjectiveSpec = { objective: 'bd3', model: TINY_BD3_MODEL, batch: 2, length: 16, blockLength: 4, maskId: 63 };

export function tinyBd3Problem(steps: number, noiseSeed: number, initSeed: number): { stepSpec: StepGraphSpec; batches: Readonly<Record<string, HostTensor>>[]; init: Record<string, Float32Array> } {
  const stepSpec = objectiveStepSpec(TINY_BD3);
  const noise = new Rng(noiseSeed);
  const batches = Array.from({ length: steps }, (_, k) => {
    const examples = Array.from({ length: 2 }, (_, b) => ({
      ids: Int32Array.from({ length: 16 }, (_, i) => (b * 31 + i * 7) % 60),
      target: Uint8Array.from({ length: 16 }, (_, i) => (i >= 4 ? 1 : 0)),
    }));
    return objectiveFeeds(
      TINY_BD3,
      materialize(
        examples,
        examples.map((_, i) => ({ examples: [i] })),
        16,
        0,
      ),
      noise.fork(`noise:${k}`),
    );
  });
  const next = rng(initSeed);
  const init = Object.fromEntries(
    stepSpec.params.map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      return [p.name, p.shape.length === 1 ? new Float32Array(n).fill(1) : Float32Array.from(randn(next, n), (v) => v * 0.05)];
    }),
  );
  return { stepSpec, batches, init };
}
