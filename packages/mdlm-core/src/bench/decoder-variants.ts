// The decoders a decoding benchmark compares, by name: `host`, or `resident` with an optional
// half precision (-f16, -bf16) and CUDA-graph decode steps (-graph), e.g. resident-f16-graph.
import type { DecoderKind, OnnxModelOptions } from '../sampling/index.js';

export interface DecoderVariant {
  name: string;
  kind: DecoderKind;
  dtype?: 'float16' | 'bfloat16';
  cudaGraph: boolean;
}

export function decoderVariant(name: string): DecoderVariant {
  const m = /^(resident|host)(?:-(f16|bf16))?(-graph)?$/.exec(name.trim());
  if (!m || (m[1] === 'host' && (m[2] || m[3]))) throw new Error(`--decoders: "${name}" is not host or resident[-f16|-bf16][-graph]`);
  return { name: name.trim(), kind: m[1] as DecoderKind, ...(m[2] ? { dtype: m[2] === 'f16' ? ('float16' as const) : ('bfloat16' as const) } : {}), cudaGraph: m[3] !== undefined };
}

/** The model options of a variant on a provider. */
export function variantOptions(v: DecoderVariant, provider: OnnxModelOptions['provider']): OnnxModelOptions {
  return { ...(provider ? { provider } : {}), decoder: v.kind, ...(v.dtype ? { dtype: v.dtype } : {}), cudaGraph: v.cudaGraph };
}
