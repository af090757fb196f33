// How an SDAR checkpoint (model_type sdar: a block-diffusion Qwen3, JetAstra/SDAR) decodes as a
// bd3 world model: its block length and mask token from config.json (`block_size`,
// `mask_token_id`), its stop ids from generation_config.json (`eos_token_id`), and SDAR's
// generate.py defaults for the rest — as many denoising steps per block as the block is long,
// low_confidence_dynamic unmasking at τ = 0.85. generation_config.json may set any of them under
// generate.py's own flag names (`block_length`, `denoising_steps`, `remasking_strategy`,
// `confidence_threshold`); a DiffWorld-trained checkpoint writes `block_length` and `mask_token_id` there.
import type { ModelConfig } from '../nn/config.js';
import { SamplingError } from './errors.js';
import { UNMASKING_STRATEGIES, type UnmaskingStrategy } from './unmasking.js';

/** A block-diffusion checkpoint's decoding settings. */
export interface BlockDecodingSettings {
  blockLength: number;
  maskId: number;
  denoisingSteps: number;
  threshold: number;
  unmasking: UnmaskingStrategy;
}

/** SDAR generate.py's defaults (its CLI: denoising steps = block length 4, dynamic at 0.85). */
export const SDAR_DEFAULTS = { threshold: 0.85, unmasking: 'low_confidence_dynamic' } as const satisfies Partial<BlockDecodingSettings>;

/** The decoding settings of an SDAR checkpoint; `where` names generation_config.json in errors. */
export function sdarDecoding(config: ModelConfig, gc: Readonly<Record<string, unknown>> | undefined, where: string): BlockDecodingSettings {
  if (!config.blockDiffusion) throw new SamplingError('bad_model', `${where}: model_type ${config.modelType} is not a block-diffusion (sdar) checkpoint`);
  const int = (key: string, dflt: number): number => {
    const v = gc?.[key];
    if (v === undefined || v === null) return dflt;
    if (!(Number.isInteger(v) && (v as number) >= 1)) throw new SamplingError('bad_model', `${where}: ${key} must be an integer ≥ 1, got ${JSON.stringify(v)}`);
    return v as number;
  };
  const blockLength = int('block_length', config.blockDiffusion.blockSize);
  const maskRaw = gc?.['mask_token_id'];
  if (maskRaw !== undefined && maskRaw !== null && !(Number.isInteger(maskRaw) && (maskRaw as number) >= 0))
    throw new SamplingError('bad_model', `${where}: mask_token_id must be a token id, got ${JSON.stringify(maskRaw)}`);
  const maskId = (maskRaw as number | undefined | null) ?? config.blockDiffusion.maskTokenId;
  const t = gc?.['confidence_threshold'];
  if (t !== undefined && t !== null && !(typeof t === 'number' && t >= 0 && t <= 1))
    throw new SamplingError('bad_model', `${where}: confidence_threshold must be a number in [0, 1], got ${JSON.stringify(t)}`);
  const u = gc?.['remasking_strategy'];
  if (u !== undefined && u !== null && !UNMASKING_STRATEGIES.includes(u as UnmaskingStrategy))
    throw new SamplingError('bad_model', `${where}: remasking_strategy ${JSON.stringify(u)} is not one of ${UNMASKING_STRATEGIES.join(', ')}`);
  return {
    blockLength,
    maskId,
    denoisingSteps: int('denoising_steps', blockLength),
    threshold: (t as number | undefined | null) ?? SDAR_DEFAULTS.threshold,
    unmasking: (u as UnmaskingStrategy | undefined | null) ?? SDAR_DEFAULTS.unmasking,
  };
}
