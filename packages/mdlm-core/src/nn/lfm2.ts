// LFM2 (Liquid AI's hybrid decoder, the paper's LFM2.5 policy backbone), as transformers'
// Lfm2ForCausalLM defines it: token embedding → N pre-norm layers, each mixing tokens either by
// grouped-query attention (per-head q/k RMSNorm, RoPE) or by a gated short convolution, then a
// SwiGLU feed-forward → final RMSNorm (`model.embedding_norm`) → LM head (tied by default).
//
//   conv layer:  B, C, v = in_proj(h) split in three;  z = B ⊙ v  (the "gated input")
//                y[t] = Σ_j w[:, j] · z[t − (L−1) + j]  (depthwise, causal, kernel L = conv_L_cache)
//                out = out_proj(C ⊙ y)
//
// Parameter names are transformers' (`model.layers.i.conv.in_proj.weight`, `…conv.conv.weight`
// [D, 1, L], `…self_attn.out_proj.weight`, `…operator_norm.weight`, `…feed_forward.w1.weight`), so
// safetensors load rename-free. The convolution is built from Concat/Pad, Slice or Gather and
// elementwise ops, so it needs no gradient rule of its own and runs in float64 on the CPU (ONNX
// Runtime's Conv has no float64 kernel). Its decoding state is the last L − 1 gated inputs of a
// row (transformers keeps L of them and rolls; the oldest never reaches an output).
import { type Tensor, GraphError, add, cast, concat, cumsum, equal, gather, mul, pad, reshape, slice, sub, unsqueeze } from '../graph/index.js';
import { linear, rmsNorm, swiglu } from './functional.js';
import type { ParamSpec } from './params.js';
import { type AttentionNames, type ForwardInputs, type ForwardOutputs, type HybridLayout, type KvPair, type TransformerConfig, headDimOf, lmHead, selfAttention } from './transformer.js';

const layer = (i: number, rest: string) => `model.layers.${i}.${rest}`;

const lfm2Attention = (i: number): AttentionNames => ({
  q: layer(i, 'self_attn.q_proj'),
  k: layer(i, 'self_attn.k_proj'),
  v: layer(i, 'self_attn.v_proj'),
  o: layer(i, 'self_attn.out_proj'),
  qNorm: layer(i, 'self_attn.q_layernorm'),
  kNorm: layer(i, 'self_attn.k_layernorm'),
});

/** LFM2's parameters (transformers' names and shapes); norm weights and biases are excluded from weight decay. */
export function lfm2Params(c: TransformerConfig, l: HybridLayout): ParamSpec[] {
  const hd = headDimOf(c);
  const D = c.dModel;
  const specs: ParamSpec[] = [{ name: 'model.embed_tokens.weight', shape: [c.vocabSize, D] }];
  const proj = (name: string, out: number, inp: number, bias = false) => {
    specs.push({ name: `${name}.weight`, shape: [out, inp] });
    if (bias) specs.push({ name: `${name}.bias`, shape: [out], decay: false });
  };
  l.layerTypes.forEach((type, i) => {
    if (type === 'full_attention') {
      const n = lfm2Attention(i);
      proj(n.q, c.nHeads * hd, D);
      proj(n.k, c.nKvHeads * hd, D);
      proj(n.v, c.nKvHeads * hd, D);
      proj(n.o, D, c.nHeads * hd);
      specs.push({ name: `${n.qNorm}.weight`, shape: [hd], decay: false }, { name: `${n.kNorm}.weight`, shape: [hd], decay: false });
    } else {
      proj(layer(i, 'conv.in_proj'), 3 * D, D, l.convBias);
      specs.push({ name: layer(i, 'conv.conv.weight'), shape: [D, 1, l.convKernel] });
      if (l.convBias) specs.push({ name: layer(i, 'conv.conv.bias'), shape: [D], decay: false });
      proj(layer(i, 'conv.out_proj'), D, D, l.convBias);
    }
    proj(layer(i, 'feed_forward.w1'), c.ffnDim, D);
    proj(layer(i, 'feed_forward.w3'), c.ffnDim, D);
    proj(layer(i, 'feed_forward.w2'), D, c.ffnDim);
    specs.push({ name: layer(i, 'operator_norm.weight'), shape: [D], decay: false }, { name: layer(i, 'ffn_norm.weight'), shape: [D], decay: false });
  });
  specs.push({ name: 'model.embedding_norm.weight', shape: [D], decay: false });
  if (!c.tieEmbeddings) specs.push({ name: 'lm_head.weight', shape: [c.vocabSize, D] });
  return specs;
}

/** One conv layer's weights (in_proj [3D, D], conv [D, 1, L], out_proj [D, D], optional biases). */
export interface ShortConvWeights {
  inProj: Tensor;
  inBias?: Tensor | undefined;
  conv: Tensor;
  convBias?: Tensor | undefined;
  outProj: Tensor;
  outBias?: Tensor | undefined;
}

/** int64 [T]: 0, 1, …, T − 1 for the time axis of ids [B, T], also when B and T are named dims. */
function timeIndex(ids: Tensor): Tensor {
  const firstRow = gather(ids, ids.graph.constant([0], 'int64', []), 0); // (T)
  return sub(cumsum(add(mul(firstRow, 0), 1), 0), 1);
}

/**
 * The L taps of a causal depthwise convolution over z [B, T, D]: tap j holds z[t − (L−1) + j]
 * (tap L − 1 is z itself), reading `past` ([B, L − 1, D], the inputs before z) or zeros before the
 * start. With `segmentIds` a tap that reaches into an earlier packed sample reads zero.
 */
function causalTaps(z: Tensor, L: number, past: Tensor | undefined, segmentIds: Tensor | undefined, ids: Tensor): Tensor[] {
  const T = z.shape[1]!;
  if (typeof T === 'number') {
    // Static length (training graphs): L slices of the padded or past-extended sequence.
    const ext = past ? concat([past, z], 1) : pad(z, [0, L - 1, 0, 0, 0, 0]); // (B, L−1+T, D)
    return Array.from({ length: L }, (_, j) => {
      const tap = slice(ext, [j], [j + T], [1]);
      const back = L - 1 - j;
      if (!segmentIds || back === 0) return tap;
      // same[b, t] = segment(t) == segment(t − back); positions before the row start read zeros anyway.
      const earlier = slice(pad(segmentIds, [0, back, 0, 0]), [0], [T], [1]);
      return mul(tap, unsqueeze(cast(equal(segmentIds, earlier), z.dtype), [2]));
    });
  }
  // Named length (decoder graphs): the past is always given; taps gather at t + j of past ++ z.
  if (!past) throw new GraphError('lfm2', `a convolution over a named length "${T}" needs convPast (zeros for an empty cache)`);
  if (segmentIds) throw new GraphError('lfm2', 'segmentIds are for packed training graphs (static lengths)');
  const ext = concat([past, z], 1); // (B, L−1+T, D)
  const t = timeIndex(ids);
  return Array.from({ length: L }, (_, j) => gather(ext, j === 0 ? t : add(t, j), 1));
}

/**
 * A conv layer's state after the new tokens: the last L − 1 of past ++ gated, [B, L − 1, D], for
 * graphs that hand the cache back (`wm export --kv-cache`); the sampler keeps it on the host instead.
 */
export function convPresent(past: Tensor, gated: Tensor, ids: Tensor): Tensor {
  const W = past.dim(1);
  const ext = concat([past, gated], 1); // (B, W+T, D)
  const last = gather(timeIndex(ids), ids.graph.constant([-1], 'int64', []), 0); // T − 1
  const tail = ids.graph.constant(
    Array.from({ length: W }, (_, j) => j + 1),
    'int64',
    [W],
  );
  return gather(ext, add(tail, last), 1); // positions T .. T+W−1 of ext
}

/**
 * LFM2's gated short convolution of normed hidden states h [B, T, D] (`Lfm2ShortConv`): returns
 * the block's output and its gated inputs (what a decoding cache keeps).
 */
export function shortConv(h: Tensor, w: ShortConvWeights, opts: { past?: Tensor | undefined; segmentIds?: Tensor | undefined; ids: Tensor }): { out: Tensor; gated: Tensor } {
  const D = h.dim(-1) as number;
  const L = w.conv.dim(2) as number;
  const bcx = linear(h, w.inProj, w.inBias); // (B, T, 3D)
  const part = (k: number) => slice(bcx, [k * D], [(k + 1) * D], [2]);
  const gated = mul(part(0), part(2)); // B ⊙ x, (B, T, D)
  const kernel = reshape(w.conv, [D, L]);
  const taps = causalTaps(gated, L, opts.past, opts.segmentIds, opts.ids);
  let y = taps.map((tap, j) => mul(tap, reshape(slice(kernel, [j], [j + 1], [1]), [D]))).reduce((a, b) => add(a, b));
  if (w.convBias) y = add(y, w.convBias);
  return { out: linear(mul(part(1), y), w.outProj, w.outBias), gated };
}

/** LFM2's forward (decoderForward dispatches here): `past` per attention layer, `convPast` per conv layer, both in layer order. */
export function lfm2Forward(c: TransformerConfig, l: HybridLayout, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): ForwardOutputs {
  const convLayers = l.layerTypes.filter((t) => t === 'conv').length;
  if (inp.convPast && inp.convPast.length !== convLayers) throw new RangeError(`decoderForward: convPast has ${inp.convPast.length} layers, the model ${convLayers} conv layers`);
  if (inp.past && !inp.convPast && convLayers > 0) throw new RangeError('decoderForward: an LFM2 cache needs convPast beside past (one per conv layer)');
  const w = (i: number, name: string) => p[layer(i, name)]!;
  const opt = (i: number, name: string) => p[layer(i, name)];
  let x = gather(p['model.embed_tokens.weight']!, inp.inputIds, 0); // (B, T, D)
  const present: KvPair[] = [];
  const fresh: KvPair[] = [];
  const convFresh: Tensor[] = [];
  l.layerTypes.forEach((type, i) => {
    const h = rmsNorm(x, w(i, 'operator_norm.weight'), c.rmsEps);
    let mixed: Tensor;
    if (type === 'full_attention') {
      const att = selfAttention(c, p, lfm2Attention(i), h, inp, inp.past?.[present.length]);
      present.push(att.kv);
      fresh.push(att.fresh);
      mixed = att.out;
    } else {
      const conv = shortConv(
        h,
        {
          inProj: w(i, 'conv.in_proj.weight'),
          inBias: opt(i, 'conv.in_proj.bias'),
          conv: w(i, 'conv.conv.weight'),
          convBias: opt(i, 'conv.conv.bias'),
          outProj: w(i, 'conv.out_proj.weight'),
          outBias: opt(i, 'conv.out_proj.bias'),
        },
        { past: inp.convPast?.[convFresh.length], segmentIds: inp.segmentIds, ids: inp.inputIds },
      );
      convFresh.push(conv.gated);
      mixed = conv.out;
    }
    const x1 = add(x, mixed);
    x = add(x1, swiglu(rmsNorm(x1, w(i, 'ffn_norm.weight'), c.rmsEps), w(i, 'feed_forward.w1.weight'), w(i, 'feed_forward.w3.weight'), w(i, 'feed_forward.w2.weight')));
  });
  return { logits: lmHead(c, p, x, p['model.embedding_norm.weight']!, inp), present, fresh, convFresh };
}
