// Export of a model to one standalone ONNX inference file: weights as initializers, RoPE tables as a
// constant gathered by position ids, so any ONNX runtime can run it with no DiffWorld code.
//   inputs   input_ids [batch, seq] int64, position_ids [batch, seq] int64,
//            attention_bias [batch, 1, seq, past+seq] float (additive: 0 attends, −1e9 blocks — the
//            caller picks causal, bidirectional or block-causal, so one file serves AR, MDLM and BD3)
//            with a KV cache also past.<layer>.key / past.<layer>.value [batch, kv_heads, past, head_dim]
//            (LFM2: one per attention layer, numbered in order, and past.<n>.conv [batch, L − 1, hidden]
//            per conv layer: the last L − 1 gated inputs, zeros before the first token)
//   outputs  logits [batch, seq, vocab]; with a KV cache present.<layer>.key / .value (past ++ new)
//            and, for LFM2, present.<n>.conv (the last L − 1 of past ++ new)
// Protobuf caps one file at 2 GiB; larger models are refused (ONNX external data is not written).
import { Graph, emitOnnx, sumDims } from '../graph/index.js';
import { ropeInputs, ropeTablesRange } from './rope.js';
import { convPresent } from './lfm2.js';
import { type TransformerConfig, attentionLayerCount, convLayerCount, decoderForward, headDimOf, transformerParams } from './transformer.js';

export interface ExportOptions {
  /** Add past/present key-value inputs and outputs (default false). */
  kvCache?: boolean;
  /** Rows of the RoPE table baked in (default the config's maxPositions, else 4096). */
  maxPositions?: number;
}

export const ONNX_FILE_LIMIT = 2 ** 31 - 1;

export class ExportError extends Error {
  override readonly name = 'ExportError';
}

/** The ONNX bytes of the model with these weights (float32). */
export function exportOnnxModel(config: TransformerConfig, weights: ReadonlyMap<string, Float32Array> | Readonly<Record<string, Float32Array>>, opts: ExportOptions = {}): Uint8Array {
  const get = (name: string) => (weights instanceof Map ? weights.get(name) : (weights as Readonly<Record<string, Float32Array>>)[name]);
  const specs = transformerParams(config);
  let bytes = 0;
  for (const s of specs) {
    const w = get(s.name);
    const n = s.shape.reduce((a, b) => a * b, 1);
    if (!w) throw new ExportError(`export: no weight "${s.name}"`);
    if (w.length !== n) throw new ExportError(`export: weight "${s.name}" has ${w.length} values, its shape [${s.shape.join(', ')}] needs ${n}`);
    bytes += 4 * n;
  }
  if (bytes > ONNX_FILE_LIMIT) throw new ExportError(`export: ${(bytes / 2 ** 30).toFixed(2)} GiB of float32 weights exceed the 2 GiB limit of one ONNX file (external data is not supported)`);
  if (config.ropeScaling?.type === 'dynamic') throw new ExportError('export: dynamic RoPE depends on the sequence length at run time; it cannot be baked into a table');
  const maxPos = opts.maxPositions ?? config.maxPositions ?? 4096;
  const hd = headDimOf(config);
  const g = new Graph();
  const params = Object.fromEntries(specs.map((s) => [s.name, g.constant(get(s.name)!, 'float32', s.shape)]));
  const inputIds = g.input('input_ids', 'int64', ['batch', 'seq']);
  const positions = g.input('position_ids', 'int64', ['batch', 'seq']);
  const keys = opts.kvCache ? sumDims(['past', 'seq']) : 'seq';
  const bias = g.input('attention_bias', 'float32', ['batch', 1, 'seq', keys]);
  const tables = ropeTablesRange(config, 0, maxPos);
  const past = opts.kvCache
    ? Array.from({ length: attentionLayerCount(config) }, (_, i) => ({
        key: g.input(`past.${i}.key`, 'float32', ['batch', config.nKvHeads, 'past', hd]),
        value: g.input(`past.${i}.value`, 'float32', ['batch', config.nKvHeads, 'past', hd]),
      }))
    : undefined;
  const lfm2 = config.lfm2;
  const convPast = opts.kvCache && lfm2 ? Array.from({ length: convLayerCount(config) }, (_, i) => g.input(`past.${i}.conv`, 'float32', ['batch', lfm2.convKernel - 1, config.dModel])) : undefined;
  const out = decoderForward(config, params, { inputIds, mask: bias, ...ropeInputs(tables, hd, positions), ...(past ? { past } : {}), ...(convPast ? { convPast } : {}) });
  g.output('logits', out.logits);
  if (opts.kvCache) {
    out.present.forEach((kv, i) => {
      g.output(`present.${i}.key`, kv.key);
      g.output(`present.${i}.value`, kv.value);
    });
    convPast?.forEach((p, i) => g.output(`present.${i}.conv`, convPresent(p, out.convFresh[i]!, inputIds)));
  }
  return emitOnnx(g, { name: opts.kvCache ? 'diffworld_decoder_kv' : 'diffworld_decoder' }).bytes;
}
