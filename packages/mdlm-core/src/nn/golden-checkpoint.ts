// Writes the DiffWorld-side checkpoints of the transformers goldens (tools/golden/hf_models.py and
// tools/golden/lfm2_golden.py load them with transformers and record their logits): a tiny Qwen3
// (tied embeddings, attention biases, q/k norm, GQA, head_dim ≠ hidden/heads) and a tiny LFM2 (conv
// and attention layers, conv biases, auto-adjusted feed-forward width), with seeded random weights,
// saved by saveCheckpoint with config.json from toHfConfig (float32 weights) in
// test-data/golden/hf/diffworld_written and test-data/golden/lfm2/diffworld_written.
// Run from the repo root: npx tsx --conditions=@diffworld/source packages/mdlm-core/src/nn/golden-checkpoint.ts [qwen3|lfm2] [OUT_DIR]
// (src/nn/hf-golden.test.ts and src/nn/lfm2-golden.test.ts check that the committed directories are what this writes.)
import { Rng } from '@diffworld/dataset';
import { type SavedCheckpoint, saveCheckpoint } from '../checkpoint/directory.js';
import { type ModelConfig, toHfConfig } from './config.js';
import { transformerParams } from './transformer.js';

export const DIFFWORLD_GOLDEN_CONFIG: ModelConfig = {
  modelType: 'qwen3',
  vocabSize: 64,
  dModel: 32,
  nLayers: 2,
  nHeads: 4,
  nKvHeads: 2,
  headDim: 12,
  ffnDim: 40,
  ropeTheta: 1_000_000,
  rmsEps: 1e-6,
  maxPositions: 512,
  ropeScaling: { type: 'default' },
  ropeStyle: 'rope_scaling',
  tieEmbeddings: true,
  attentionBias: true,
  attentionOutBias: true,
  mlpBias: false,
  qkNorm: true,
  torchDtype: 'float32',
  bosTokenId: 1,
  eosTokenId: 2,
  extra: {},
};

export const DIFFWORLD_LFM2_GOLDEN_CONFIG: ModelConfig = {
  modelType: 'lfm2',
  vocabSize: 64,
  dModel: 32,
  nLayers: 3,
  nHeads: 4,
  nKvHeads: 2,
  headDim: 8,
  // intermediate_size 72 → ⌊2·72/3⌋ = 48, a multiple of 16 already
  ffnDim: 48,
  ffnSizing: { intermediateSize: 72, autoAdjust: true, multiplier: 1, multipleOf: 16 },
  lfm2: { layerTypes: ['full_attention', 'conv', 'conv'], convKernel: 3, convBias: true },
  ropeTheta: 1_000_000,
  rmsEps: 1e-5,
  maxPositions: 512,
  ropeScaling: { type: 'default' },
  ropeStyle: 'rope_parameters',
  tieEmbeddings: true,
  attentionBias: false,
  attentionOutBias: false,
  mlpBias: false,
  qkNorm: true,
  torchDtype: 'float32',
  bosTokenId: 1,
  eosTokenId: 2,
  extra: {},
};

/** Writes the golden DiffWorld checkpoint directory of `config` to `out` (deterministic: a fixed seed). */
export async function writeGoldenCheckpoint(out: string, config: ModelConfig = DIFFWORLD_GOLDEN_CONFIG): Promise<SavedCheckpoint> {
  const rng = new Rng(20261130);
  const weights = new Map(
    transformerParams(config).map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      const norm = p.name.endsWith('norm.weight');
      const scale = p.name.endsWith('.bias') ? 0.2 : 0.6;
      const data = Float32Array.from({ length: n }, () => (norm ? 1 + 0.2 * (rng.float() - 0.5) : scale * (rng.float() - 0.5)));
      return [p.name, { shape: p.shape, data }] as const;
    }),
  );
  const saved = await saveCheckpoint(out, { config: toHfConfig(config), weights });
  return saved;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lfm2 = process.argv[2] === 'lfm2';
  const out = process.argv[lfm2 || process.argv[2] === 'qwen3' ? 3 : 2] ?? (lfm2 ? 'test-data/golden/lfm2/diffworld_written' : 'test-data/golden/hf/diffworld_written');
  const saved = await writeGoldenCheckpoint(out, lfm2 ? DIFFWORLD_LFM2_GOLDEN_CONFIG : DIFFWORLD_GOLDEN_CONFIG);
  console.log(`wrote ${saved.dir}: ${saved.files.join(', ')}`);
}
