// A half-precision inference graph (parameters and KV cache in float16/bfloat16, RoPE tables and
// mask in float32, as the resident decoder builds it): the GEMMs run in the half type, while every
// RMSNorm reduction, the RoPE rotation and the attention softmax run in float32. Checked on the
// graph itself, so bfloat16 — which ORT's CPU provider cannot run — is covered too.
import { describe, expect, it } from 'vitest';
import { Graph, less, type Tensor, where } from '../graph/index.js';
import { decoderForward, headDimOf, transformerParams, type TransformerConfig } from './transformer.js';

const cfg: TransformerConfig = { vocabSize: 32, dModel: 16, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 32, ropeTheta: 10000, rmsEps: 1e-6, qkNorm: true };

/** Every op tensor the output depends on. */
function opsOf(out: Tensor): Tensor[] {
  const seen = new Set<Tensor>();
  const stack = [out];
  while (stack.length) {
    const t = stack.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    if (t.source.kind === 'op') stack.push(...t.source.inputs);
  }
  return [...seen].filter((t) => t.source.kind === 'op');
}
const opName = (t: Tensor) => (t.source.kind === 'op' ? t.source.op.name : '');
const inputsOf = (t: Tensor) => (t.source.kind === 'op' ? t.source.inputs : []);

describe.each(['float16', 'bfloat16'] as const)('%s inference graph', (dtype) => {
  it('GEMMs in half precision; RMSNorm, RoPE and the masked softmax in float32; nothing float64', () => {
    for (const grouped of [true, false]) {
      const g = new Graph();
      const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, dtype, s.shape)]));
      const hd = headDimOf(cfg);
      const columns = g.input('columns', 'int64', [1, 1, 1, 'past+T']);
      const visible = g.input('visible', 'int64', ['batch', 1, 'T', 1]);
      const past = Array.from({ length: cfg.nLayers }, () => ({
        key: g.input(`k${g.inputs.length}`, dtype, ['batch', cfg.nKvHeads, 'past', hd]),
        value: g.input(`v${g.inputs.length}`, dtype, ['batch', cfg.nKvHeads, 'past', hd]),
      }));
      const out = decoderForward(cfg, p, {
        inputIds: g.input('input_ids', 'int64', ['batch', 'T']),
        mask: where(less(columns, visible), 0, -1e9),
        cos: g.input('cos', 'float32', ['batch', 1, 'T', hd]),
        sin: g.input('sin', 'float32', ['batch', 1, 'T', hd]),
        past,
        groupedAttention: grouped,
      });
      expect(out.logits.dtype).toBe(dtype);
      const ops = opsOf(out.logits);
      const named = (n: string) => ops.filter((t) => opName(t) === n);
      expect(named('MatMul').length).toBeGreaterThanOrEqual(cfg.nLayers * 9); // 7 projections + 2 attention GEMMs a layer, and the LM head
      for (const m of named('MatMul')) for (const x of inputsOf(m)) expect(x.dtype, 'a MatMul operand').toBe(dtype);
      // Softmax over float32 (masked scores); RMSNorm's mean of squares and the RoPE products in float32.
      expect(named('Softmax')).toHaveLength(cfg.nLayers);
      for (const s of named('Softmax')) expect(s.dtype).toBe('float32');
      expect(named('ReduceMean')).toHaveLength(cfg.nLayers * 4 + 1); // input, post-attention, q and k norms a layer, the final norm
      for (const r of named('ReduceMean')) expect(r.dtype).toBe('float32');
      for (const m of named('Mul').filter((t) => inputsOf(t).some((x) => x.source.kind === 'input' && ['cos', 'sin'].includes(x.source.name)))) expect(m.dtype).toBe('float32');
      expect(ops.some((t) => t.dtype === 'float64')).toBe(false);
    }
  });
});
