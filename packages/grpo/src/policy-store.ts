// Policies on disk as Hugging Face checkpoint directories (config.json, model.safetensors,
// tokenizer.json), plus AdamW moments and the trainer state for GRPO checkpoints — the mdlm-core
// checkpoint writer, so every save is atomic and float32 exact (resumes are bit for bit).
import { ADAM_M_PREFIX, ADAM_V_PREFIX, type ModelConfig, type TensorInput, loadCheckpoint, saveCheckpoint, toHfConfig, transformerParams } from '@diffworld/mdlm-core';
import type { FloatArray } from './score.js';

export interface StoredPolicy {
  params: Record<string, Float32Array>;
  /** Parameters and `adam_m.` / `adam_v.` moments by graph name, when the checkpoint has them. */
  optimizer?: Record<string, Float32Array>;
  trainerState?: Record<string, unknown>;
}

const f32 = (a: FloatArray) => (a instanceof Float32Array ? a : Float32Array.from(a));

export async function savePolicy(
  dir: string,
  model: ModelConfig,
  tokenizerJson: string,
  params: Readonly<Record<string, FloatArray>>,
  extra: { optimizer?: Readonly<Record<string, FloatArray>>; trainerState?: Record<string, unknown> } = {},
): Promise<void> {
  const weights: Record<string, TensorInput> = {};
  const moments: Record<string, TensorInput> = {};
  for (const p of transformerParams(model)) {
    weights[p.name] = { shape: p.shape, data: f32(params[p.name]!) };
    const m = extra.optimizer?.[ADAM_M_PREFIX + p.name];
    const v = extra.optimizer?.[ADAM_V_PREFIX + p.name];
    if (m && v) {
      moments[ADAM_M_PREFIX + p.name] = { shape: p.shape, data: f32(m) };
      moments[ADAM_V_PREFIX + p.name] = { shape: p.shape, data: f32(v) };
    }
  }
  await saveCheckpoint(dir, {
    config: toHfConfig(model),
    weights,
    tokenizerJson,
    ...(extra.optimizer ? { optimizer: moments } : {}),
    ...(extra.trainerState ? { trainerState: extra.trainerState } : {}),
  });
}

export async function loadPolicy(dir: string): Promise<StoredPolicy> {
  const c = await loadCheckpoint(dir);
  const params = Object.fromEntries([...c.weights].map(([k, w]) => [k, w.data]));
  const optimizer = c.optimizer ? { ...params, ...Object.fromEntries([...c.optimizer].map(([k, w]) => [k, w.data])) } : undefined;
  return { params, ...(optimizer ? { optimizer } : {}), ...(c.trainerState ? { trainerState: c.trainerState } : {}) };
}
