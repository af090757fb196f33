// The resident decoder's variants (float32/float16/bfloat16, with and without CUDA-graph decode
// steps) on a model with random weights of a given config: no checkpoint and no corpus needed, so
// it runs on a bare GPU host in one call. Random prompt ids of one length, decoded greedily to
// exactly --max-new tokens (no stop ids), batch 1 (the first --single prompts one at a time) and
// larger batches. Prints tokens/s (prefill included, as decode.bench), prefill and per-step ms,
// graph-step counts, and how many answers equal the first variant's token for token: on random
// weights the logits are nearly flat, so that is a check of graph steps against bound passes in
// one precision (they must agree), not of half precision against float32 (see decode.bench on a
// trained model for that).
//   node resident-decode.bench.mjs --config fidelity-wm.json --provider cuda --decoders resident,resident-graph,resident-bf16,resident-bf16-graph
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Rng } from '@diffworld/dataset';
import { parseHfConfig, transformerParams } from '../nn/index.js';
import type { ProviderName } from '../runtime/index.js';
import { OnnxCausalModel, ResidentDecoder, sampleAutoregressive, type SampleRequest } from '../sampling/index.js';
import { decoderVariant, variantOptions } from './decoder-variants.js';

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    'prompt-len': { type: 'string', default: '1333' },
    'max-new': { type: 'string', default: '96' },
    batches: { type: 'string', default: '1,64' },
    single: { type: 'string', default: '4' },
    decoders: { type: 'string', default: 'resident,resident-graph,resident-f16,resident-f16-graph,resident-bf16,resident-bf16-graph' },
    provider: { type: 'string', default: 'cpu' },
    seed: { type: 'string', default: '1' },
  },
});
if (!values.config) {
  process.stdout.write('Usage: resident-decode.bench --config FILE.json (a wm train config, its "model" section, or an HF config.json) [--provider cuda] [--decoders LIST] [--batches 1,64]\n');
  process.exit(2);
}
const json = JSON.parse(readFileSync(values.config, 'utf8')) as { model?: unknown };
const config = parseHfConfig({ vocab_size: 4096, ...((json.model ?? json) as object) }, values.config);
const provider = values.provider as ProviderName;
const [LEN, MAX_NEW, ONE] = [Number(values['prompt-len']), Number(values['max-new']), Number(values.single)];
const batches = values.batches.split(',').map(Number);
const rng = new Rng(Number(values.seed));
// HF's initialisation scale (std 0.02, here uniform of that std), norms at one.
const weights = Object.fromEntries(
  transformerParams(config).map((s) => [s.name, Float32Array.from({ length: s.shape.reduce((a, b) => a * b, 1) }, () => (s.shape.length === 1 ? 1 : (rng.float() - 0.5) * 0.0693))]),
);
const promptCount = Math.max(ONE, ...batches);
const prompts: SampleRequest[] = Array.from({ length: promptCount }, (_, i) => ({ prompt: Array.from({ length: LEN }, () => rng.int(1, config.vocabSize - 1)), seed: i }));
console.log(`${config.nLayers}×${config.dModel} random model, ${promptCount} prompts of ${LEN} tokens, ${MAX_NEW} new each; provider ${provider}`);

interface Row {
  decoder: string;
  batch: number;
  tokensPerSecond: number;
  prefillMs: number;
  stepMs: number;
  steps: number;
  graphPasses: number;
  tokens: number[][];
  same?: number;
}
const rows: Row[] = [];
const failures: string[] = [];
for (const name of values.decoders.split(',')) {
  const v = decoderVariant(name);
  let model: OnnxCausalModel | undefined;
  try {
    model = await OnnxCausalModel.create(config, weights, variantOptions(v, provider));
    const dec = model.decoder;
    if (!(dec instanceof ResidentDecoder)) throw new Error(`${name}: not the resident decoder`);
    const opts = { temperature: 0, maxNewTokens: MAX_NEW, stopIds: [] };
    for (const b of batches) {
      const rq = prompts.slice(0, b === 1 ? ONE : b);
      await sampleAutoregressive(model, rq.slice(0, Math.min(b, 2)), opts); // sessions compiled
      const [t, g] = [{ ...dec.timing }, dec.graphPasses];
      const t0 = performance.now();
      const tokens: number[][] = [];
      for (let i = 0; i < rq.length; i += b) for (const r of await sampleAutoregressive(model, rq.slice(i, i + b), opts)) tokens.push(r.tokens);
      const s = (performance.now() - t0) / 1000;
      const steps = dec.timing.stepPasses - t.stepPasses;
      rows.push({
        decoder: name,
        batch: b,
        tokensPerSecond: tokens.reduce((a, x) => a + x.length, 0) / s,
        prefillMs: dec.timing.prefillMs - t.prefillMs,
        stepMs: (dec.timing.stepMs - t.stepMs) / Math.max(1, steps),
        steps,
        graphPasses: dec.graphPasses - g,
        tokens,
      });
    }
  } catch (e) {
    failures.push(`${name}: ${(e as Error).message.split('\n')[0]}`);
    console.error(failures.at(-1));
  } finally {
    await model?.release();
  }
}
const first = rows[0]?.decoder;
for (const r of rows) {
  const base = rows.find((x) => x.decoder === first && x.batch === r.batch);
  if (base && r.decoder !== first) r.same = r.tokens.filter((t, i) => t.join() === base.tokens[i]?.join()).length / r.tokens.length;
}
const pad = (x: string | number, w: number) => String(x).padEnd(w);
console.log(`\n${pad('decoder', 22)}${pad('batch', 7)}${pad('tok/s', 9)}${pad('prefill ms', 12)}${pad('ms/step', 9)}${pad('steps', 7)}${pad('graph', 7)}same as ${first}`);
for (const r of rows)
  console.log(
    `${pad(r.decoder, 22)}${pad(r.batch, 7)}${pad(r.tokensPerSecond.toFixed(0), 9)}${pad(r.prefillMs.toFixed(0), 12)}${pad(r.stepMs.toFixed(2), 9)}${pad(r.steps, 7)}${pad(r.graphPasses, 7)}${r.same === undefined ? '' : `${(100 * r.same).toFixed(0)}%`}`,
  );
for (const f of failures) console.log(`failed: ${f}`);
