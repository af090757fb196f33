// GPU training-step benchmark against PyTorch eager (issue 15's measurement). One LLaMA-style model
// (default: 12 layers, d 768, 12 heads, FFN 2048, vocab 8192 ≈ 100M parameters), batch 16 × 512,
// causal-LM loss, AdamW with clipping — the same step tools/gpu/torch_train_step.py times in
// PyTorch. Each path is `provider:stepsPerCall`: `cuda:1` moves every parameter and moment through
// host memory each step (onnxruntime-node has no CUDA device tensors), `cuda:16` runs 16 steps per
// call in the Loop graph with the state on the GPU, `cuda:16:bf16` the same with bfloat16 MatMuls
// (float32 state; `:fp16` float16 with dynamic loss scaling), `webgpu:1` keeps the state in WebGPU buffers.
// With --torch FILE (the Python script's JSON) it prints the ratios to PyTorch at each precision.
// With --profile it also records one ORT profile per path and prints where the time goes. With
// --compare N it first trains N steps on the first path and on each other path from the same
// weights and batches, and prints the largest relative difference of their loss curves. The first
// path runs once unreported before the measured ones (--no-warmup skips that). A path may end in
// `:op18` to build its graphs at opset 18 (RoPE as a composite) instead of the provider's default.
// On CUDA, `cuda:1` runs through ORT's C API with IO binding and CUDA graphs (the runner's default
// there: the state never leaves the GPU and each step is one graph launch); `:io-nograph` keeps the
// IO binding without CUDA graphs, `:host` forces onnxruntime-node (state through host memory).
//   node gpu-train.bench.mjs --paths cuda:1,cuda:1:host,cuda:16,webgpu:1 --torch torch.json --profile
import { createReadStream, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { causalMask, transformerParams, type TransformerConfig } from '../nn/index.js';
import { type ProviderName, clearSessionCache, hostTensor, probeProvider } from '../runtime/index.js';
import { type OptimizerLayout, type Precision, StepRunner, type StepGraphSpec } from '../train/index.js';
import { lmInitParams, lmStepSpec } from './lm-step.js';

const { values } = parseArgs({
  options: {
    paths: { type: 'string', default: 'cuda:1,cuda:32,cuda:32:bf16,cuda:32:fp32:per-tensor' },
    layers: { type: 'string', default: '12' },
    /** With --compare: also print each step's relative difference. */
    curves: { type: 'boolean', default: false },
    d: { type: 'string', default: '768' },
    heads: { type: 'string', default: '12' },
    ffn: { type: 'string', default: '2048' },
    vocab: { type: 'string', default: '8192' },
    batch: { type: 'string', default: '16' },
    seq: { type: 'string', default: '512' },
    steps: { type: 'string', default: '32' },
    torch: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'no-warmup': { type: 'boolean', default: false },
    compare: { type: 'string', default: '0' },
  },
});
const num = (k: keyof typeof values) => Number(values[k]);
const C: TransformerConfig = { vocabSize: num('vocab'), dModel: num('d'), nLayers: num('layers'), nHeads: num('heads'), nKvHeads: num('heads'), ffnDim: num('ffn'), ropeTheta: 10000, rmsEps: 1e-6 };
const B = num('batch'),
  T = num('seq'),
  STEPS = num('steps');

function spec(path: BenchPath): StepGraphSpec {
  return lmStepSpec(C, B, T, causalMask(T), { optimizer: { weightDecay: 0.01 }, clipNorm: 1, ...(path.layout ? { optimizerLayout: path.layout } : {}), ...(path.opset ? { opset: path.opset } : {}) });
}

const init = () => lmInitParams(C);

function batch(i: number) {
  const ids = BigInt64Array.from({ length: B * T }, (_, j) => BigInt((j * 7919 + i * 104729) % C.vocabSize));
  return {
    input_ids: hostTensor('int64', ids, [B, T]),
    targets: hostTensor(
      'int64',
      ids.map((x) => (x * 3n + 1n) % BigInt(C.vocabSize)),
      [B, T],
    ),
    weights: hostTensor('float32', new Float32Array(B * T).fill(1), [B, T]),
  };
}

interface Profile {
  /** Kernel events per step (nodes ORT ran, the Loop's body counted once per iteration). */
  nodes: number;
  nodeMs: number;
  runMs: number;
  /** Op type, ms per step, nodes per step. */
  byOp: [string, number, number][];
  byProvider: [string, number][];
  copies: number;
}

type ProfileEvent = { cat: string; name: string; dur: number; args?: { op_name?: string; provider?: string } };

/** ORT's profile, one event per line of its JSON array, read as a stream: at 100M parameters and 64 steps a call it outgrows one string. */
async function* profileEvents(file: string): AsyncGenerator<ProfileEvent> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    const t = line
      .trim()
      .replace(/^\[/, '')
      .replace(/[,\]]+$/, '');
    if (t.startsWith('{')) yield JSON.parse(t) as ProfileEvent;
  }
}

/** Sums an ORT profile (Chrome trace): kernel time per op type and provider, against run time. */
async function summarise(file: string, calls: number): Promise<Profile> {
  const byOp = new Map<string, number>(),
    byProvider = new Map<string, number>();
  let nodeUs = 0,
    runUs = 0,
    copies = 0,
    nodes = 0;
  const countByOp = new Map<string, number>();
  for await (const e of profileEvents(file)) {
    if (e.cat === 'Session' && e.name === 'model_run') runUs += e.dur;
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const op = e.args?.op_name ?? '?',
      provider = e.args?.provider ?? '?';
    if (op === 'Loop') continue; // its body's nodes are listed on their own
    nodeUs += e.dur;
    nodes++;
    countByOp.set(op, (countByOp.get(op) ?? 0) + 1);
    byOp.set(op, (byOp.get(op) ?? 0) + e.dur);
    byProvider.set(provider, (byProvider.get(provider) ?? 0) + e.dur);
    if (op === 'MemcpyToHost' || op === 'MemcpyFromHost') copies++;
  }
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / 1000 / calls] as [string, number]);
  const byOpTop = top(byOp)
    .slice(0, 16)
    .map(([k, ms]) => [k, ms, (countByOp.get(k) ?? 0) / calls] as [string, number, number]);
  return { nodes: nodes / calls, nodeMs: nodeUs / 1000 / calls, runMs: runUs / 1000 / calls, byOp: byOpTop, byProvider: top(byProvider), copies: copies / calls };
}

async function benchPath(path: BenchPath, opts: { profile: boolean } = { profile: values.profile === true }) {
  const { provider, perCall } = path;
  const probe = await probeProvider(provider);
  if (!probe.ok) return { ...path, skipped: probe.reason };
  const runner = await createRunner(path);
  const batches = Array.from({ length: perCall }, (_, i) => batch(i));
  // Warm-up: arenas, kernel selection, and with IO binding both directions' CUDA graphs captured.
  await runner.steps(batches);
  await runner.steps(batches);
  const calls = Math.max(1, Math.round(STEPS / perCall));
  const t0 = performance.now();
  let last = 0;
  for (let c = 0; c < calls; c++) last = (await runner.steps(batches)).at(-1)!.loss;
  const stepMs = (performance.now() - t0) / (calls * perCall);
  const how = runner.path;
  runner.release();
  let profile: Profile | undefined;
  if (opts.profile) {
    const prefix = `ort-profile-${path.name.replaceAll(':', '-')}-${process.pid}`;
    process.env['DIFFWORLD_ORT_PROFILE'] = prefix;
    const profiled = await createRunner(path);
    delete process.env['DIFFWORLD_ORT_PROFILE'];
    // Two calls of at most 16 steps (the first with its warm-up): the profile holds every node of every step.
    const some = batches.slice(0, 16);
    await profiled.steps(some);
    await profiled.steps(some);
    profiled.endProfiling();
    profiled.release();
    const file = readdirSync('.').find((f) => f.startsWith(prefix) && f.endsWith('.json'));
    if (file) {
      // A profile that cannot be read costs the profile, not the measured row.
      profile = await summarise(file, 2 * some.length).catch((e: unknown) => (process.stderr.write(`profile ${file} not summarised: ${String(e)}\n`), undefined));
      rmSync(file);
    }
  }
  return { ...path, how, stepMs, buildMs: runner.buildMs, sessionMs: runner.sessionMs, lastLoss: last, profile };
}

/** Loss curve of N steps on one path, from the same weights and batches as every other path. */
async function curve(path: BenchPath, n: number): Promise<number[]> {
  const runner = await createRunner(path);
  const losses = (await runner.steps(Array.from({ length: n }, (_, i) => batch(i)))).map((r) => r.loss);
  runner.release();
  return losses;
}

interface BenchPath {
  name: string;
  provider: ProviderName;
  perCall: number;
  precision: Precision;
  /** Undefined: the runner's default. */
  layout?: OptimizerLayout;
  /** Undefined: the runner's default for the provider (`opsetFor`). */
  opset?: number;
  /** IO binding with CUDA graphs, without them, or off (onnxruntime-node); undefined: the runner's default. */
  io?: 'graph' | 'nograph' | 'off';
  /** With IO binding: moments per parameter instead of joined per optimizer group. */
  unstacked?: boolean;
}

function ioOptions(path: BenchPath): { ioBinding?: boolean; cudaGraph?: boolean; stackedMoments?: boolean } {
  const stacked = path.unstacked ? { stackedMoments: false } : {};
  if (path.io === undefined) return stacked;
  return path.io === 'off' ? { ioBinding: false } : { ioBinding: true, cudaGraph: path.io === 'graph', ...stacked };
}

/** A runner for one path, from the shared initial weights, at a constant learning rate. */
function createRunner(path: BenchPath): Promise<StepRunner> {
  return StepRunner.create(spec(path), init(), { provider: path.provider, stepsPerCall: path.perCall, precision: path.precision, schedule: () => 1e-4, ...ioOptions(path) });
}

const LAYOUTS: readonly string[] = ['flat', 'by-shape', 'per-tensor'];

/** `provider:stepsPerCall[:fp32|bf16|fp16][:flat|by-shape|per-tensor][:opN][:io|io-nograph|host][:unstacked]` */
function parsePath(name: string): BenchPath {
  const [p, k, ...rest] = name.split(':');
  const path: BenchPath = { name, provider: p as ProviderName, perCall: Number(k ?? 1), precision: 'float32' };
  for (const part of rest) {
    if (part === 'bf16' || part === 'fp16' || part === 'fp32') path.precision = part === 'bf16' ? 'bfloat16' : part === 'fp16' ? 'float16' : 'float32';
    else if (LAYOUTS.includes(part)) path.layout = part as OptimizerLayout;
    else if (/^op\d+$/.test(part)) path.opset = Number(part.slice(2));
    else if (part === 'unstacked') path.unstacked = true;
    else if (part === 'io' || part === 'io-nograph' || part === 'host') path.io = part === 'io' ? 'graph' : part === 'host' ? 'off' : 'nograph';
    else throw new RangeError(`path ${name}: unknown part "${part}" (precision fp32|bf16|fp16, layout ${LAYOUTS.join('|')}, opset opN, io|io-nograph|host, unstacked)`);
  }
  return path;
}

async function compareCurves(paths: string[], n: number) {
  const [ref, ...others] = paths.map(parsePath);
  const base = await curve(ref!, n);
  console.log(`\nloss curves over ${n} steps against ${paths[0]} (${base[0]!.toFixed(4)} → ${base.at(-1)!.toFixed(4)}):`);
  for (const [i, o] of others.entries()) {
    const c = await curve(o, n);
    const rel = c.map((l, j) => Math.abs(l - base[j]!) / Math.abs(base[j]!));
    console.log(`  ${paths[i + 1]}: max relative difference ${Math.max(...rel).toExponential(2)} (mean ${(rel.reduce((a, b) => a + b, 0) / n).toExponential(2)}); final loss ${c.at(-1)!.toFixed(4)}`);
    if (values.curves) console.log(`    relative difference by step: ${rel.map((r) => r.toExponential(1)).join(' ')}`);
  }
}

async function main() {
  const params = transformerParams(C).reduce((a, p) => a + p.shape.reduce((x, y) => x * y, 1), 0);
  console.log(
    `model: ${C.nLayers} layers, d ${C.dModel}, ${C.nHeads} heads, FFN ${C.ffnDim}, vocab ${C.vocabSize} — ${(params / 1e6).toFixed(1)}M parameters; batch ${B} × ${T}; AdamW + clip; float32 state`,
  );
  const torch = values.torch ? (JSON.parse(readFileSync(values.torch, 'utf8')) as Record<string, number>) : {};
  const paths = values.paths!.split(',');
  if (num('compare') > 0) await compareCurves(paths, num('compare'));
  // The first path of a process measured 5–8 ms a step slower on the H200 than the same path run
  // later (the GPU and the process warming up), so one path is run first and not reported.
  if (!values['no-warmup']) {
    process.stderr.write(`warm-up ${paths[0]} (not reported) …\n`);
    await benchPath(parsePath(paths[0]!), { profile: false });
    await clearSessionCache();
  }
  const rows = [];
  for (const path of paths) {
    process.stderr.write(`bench ${path} …\n`);
    const row = await benchPath(parsePath(path));
    rows.push(row);
    // Said at once (a later path that fails must not lose it), and each path's sessions released:
    // three 100M-parameter step sessions (plus their profiled twins) do not fit on one GPU together.
    process.stderr.write(`  ${path}: ${'skipped' in row ? `skipped (${row.skipped})` : `${row.stepMs.toFixed(1)} ms a step`}\n`);
    await clearSessionCache();
  }
  // The CUDA provider runs float32 MatMul in TF32 (its default, and onnxruntime-node passes no
  // option to change it); WebGPU computes in float32.
  const precision = (r: { provider: string; precision: Precision }) => (r.precision === 'bfloat16' ? 'bf16' : r.precision === 'float16' ? 'fp16' : r.provider === 'cuda' ? 'tf32' : 'fp32');
  console.log('\npath | how | precision | optimizer | step ms | vs PyTorch same precision | vs PyTorch fp32 | vs PyTorch bf16 | graph build s | session s | final loss');
  console.log('---|---|---|---|---|---|---|---|---|---|---');
  for (const r of rows) {
    if ('skipped' in r) {
      console.log(`${r.name} | | ${precision(r)} | ${r.layout ?? 'default'} | not available: ${r.skipped} | | | | | |`);
      continue;
    }
    const ratio = (ref?: number) => (ref ? `${(r.stepMs / ref).toFixed(2)}×` : '—');
    console.log(
      `${r.name} | ${r.how} | ${precision(r)} | ${r.layout ?? 'default'} | ${r.stepMs.toFixed(1)} | ${ratio(torch[precision(r)])} | ${ratio(torch['fp32'])} | ${ratio(torch['bf16'])} | ${(r.buildMs / 1000).toFixed(1)} | ${(r.sessionMs / 1000).toFixed(1)} | ${r.lastLoss.toFixed(4)}`,
    );
  }
  if (Object.keys(torch).length)
    console.log(
      `\nPyTorch eager, same model and step: ${Object.entries(torch)
        .map(([k, v]) => `${k} ${v.toFixed(1)} ms`)
        .join(', ')}`,
    );
  for (const r of rows) {
    if ('skipped' in r || !r.profile) continue;
    const p = r.profile;
    console.log(
      `\nprofile ${r.name} ${precision(r)} (per step): ORT run ${p.runMs.toFixed(1)} ms, ${p.nodes.toFixed(0)} nodes, kernels ${p.nodeMs.toFixed(1)} ms (${((100 * p.nodeMs) / Math.max(p.runMs, 1e-9)).toFixed(0)}%), host↔device copy nodes ${p.copies.toFixed(1)}`,
    );
    console.log(`  by provider: ${p.byProvider.map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ')}`);
    console.log(`  top ops (ms per step / nodes per step): ${p.byOp.map(([k, v, n]) => `${k} ${v.toFixed(1)}/${n.toFixed(0)}`).join(', ')}`);
  }
}

await main();
