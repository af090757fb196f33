// What an SFT policy learned, without the whole pipeline: train SFT on N expert demonstrations of
// the training split (or load a policy), then measure
//   (a) teacher-forced next-action accuracy on HELD-OUT expert demonstrations (eval split): a turn
//       counts as right when the greedy token at every one of its positions is the expert's, i.e.
//       exactly when greedy decoding on the expert's history would write the expert's action — per
//       action verb (go to / open / take / move / …), and the same on training demonstrations;
//   (b) greedy rollout success on held-out games, through the evaluation path of the pipeline
//       (evaluatePolicy: the same codec, harness framing, limits and KV-cached decoding), beside
//       the expert's own wins on the same games under the same limits (the ceiling).
// Settings come from an experiments config (policy.model, rollout, sft, eval, seed) with overrides;
// the tokenizer is a tokenizer.json (the pipeline's tokenizer stage writes one).
//   npx tsx --conditions=@diffworld/source packages/grpo/src/bench/sft-diagnose.bench.ts \
//     apps/experiments/configs/cpu.json tmp/grpo-alfworld/stages/tokenizer-*/tokenizer.json \
//     [--set sft.demos=512] [--set policy.model.num_hidden_layers=4] [--heldout 64] [--games 16] \
//     [--policy <HF policy dir: skip SFT>] [--out <dir: keep the SFT run>] [--loss episode]
//     [--save-every N] [--misses 1: the first wrong token of a few missed turns per verb]
// It runs on the config's provider (cuda for the gpu preset: SFT in sft.precision there); --loss
// defaults to the config's sft.loss.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import type { TaskRef } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import { selectTasks } from '@diffworld/eval';
import { type ProviderName, initialWeights, parseHfConfig } from '@diffworld/mdlm-core';
import { Tokenizer } from '@diffworld/tokenizer';
import { cachedPolicy } from '../cached-policy.js';
import { ChatTurnCodec } from '../chat-codec.js';
import { evaluatePolicy } from '../evaluate.js';
import { loadPolicy, savePolicy } from '../policy-store.js';
import type { Episode } from '../rollout.js';
import { PolicyScorer } from '../score.js';
import { episodeTargets, type SftRunOptions, sftPolicyDir, trainSft } from '../sft.js';
import { expertDemonstrations, realEngineSource } from '../sources.js';

type Json = Record<string, unknown>;
const args = process.argv.slice(2);
const positional: string[] = [];
const sets: [string, unknown][] = [];
const flags: Record<string, string> = {};
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--set') {
    const [k, ...v] = args[++i]!.split('=');
    const raw = v.join('=');
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    sets.push([k!, value]);
  } else if (a.startsWith('--')) flags[a.slice(2)] = args[++i]!;
  else positional.push(a);
}
const [configPath, tokenizerPath] = positional;
if (!configPath || !tokenizerPath) throw new Error('usage: sft-diagnose.bench.ts <experiments config.json> <tokenizer.json> [--set a.b=json] [--heldout N] [--games N] [--policy dir] [--out dir]');
const c = JSON.parse(readFileSync(configPath, 'utf8')) as Json;
for (const [key, value] of sets) {
  const path = key.split('.');
  let o = c;
  for (const p of path.slice(0, -1)) o = (o[p] ??= {}) as Json;
  o[path.at(-1)!] = value;
}
const policyCfg = c['policy'] as { model: Json; seed?: number };
const rolloutCfg = c['rollout'] as { maxTurns: number; maxTokensPerTurn: number; maxSeqLen: number };
const sftCfg = c['sft'] as Pick<SftRunOptions, 'steps' | 'batch' | 'lr' | 'schedule' | 'warmupRatio' | 'minLrRatio' | 'precision'> & { demos: number; loss?: 'assistant' | 'episode' };
// The config's provider (the gpu preset's cuda on the GPU host), and SFT in its precision there.
const provider = (c['provider'] as ProviderName | undefined) ?? 'cpu';
const seed = (c['seed'] as number | undefined) ?? 0;
const env = (c['env'] as string | undefined) ?? 'alfworld';
const heldout = Number(flags['heldout'] ?? 48);
const games = Number(flags['games'] ?? (c['eval'] as { tasks?: number } | undefined)?.tasks ?? 16);

const tokJson = readFileSync(tokenizerPath, 'utf8');
const tok = Tokenizer.fromJson(JSON.parse(tokJson), tokenizerPath);
const suite = envSuite(env);
const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
const model = parseHfConfig({ ...policyCfg.model, vocab_size: tok.vocabSize }, 'policy.model');
const t0 = performance.now();
const since = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`;

const demos = (tasks: readonly TaskRef[]) => expertDemonstrations(suite, tasks, codec, rolloutCfg);

const describe = (name: string, ds: readonly Episode[]) => {
  const lengths = ds.map((d) => d.ids.length);
  console.log(
    `${name}: ${ds.length} demonstrations, ${ds.filter((d) => d.won).length} won within ${rolloutCfg.maxTurns} turns, ${Math.min(...lengths)}–${Math.max(...lengths)} tokens (mean ${Math.round(lengths.reduce((a, b) => a + b, 0) / lengths.length)})`,
  );
};

// The SFT stage's demonstrations (its seeded sample of the training split) and held-out ones.
const pool = suite.tasks(suite.splits[0]!);
const trainDemos = await demos(new Rng(seed).fork('sft').sample(pool, Math.min(sftCfg.demos, pool.length)));
describe('train', trainDemos);
const evalSplit = suite.splits[1]!;
const heldoutDemos = await demos(selectTasks(env, evalSplit, heldout, seed + 1));
describe(`held-out (${evalSplit})`, heldoutDemos);

let params: Record<string, Float32Array>;
if (flags['policy']) params = (await loadPolicy(flags['policy'])).params;
else {
  const dir = flags['out'] ?? mkdtempSync(join(tmpdir(), 'sft-diagnose-'));
  await savePolicy(join(dir, 'base'), model, tokJson, initialWeights(model, policyCfg.seed ?? 0));
  const losses: number[] = [];
  // --loss episode: next-token loss on every token after the system message (observations and
  // admissible lists too), not only the assistant turns (the SFT stage's sft.loss).
  const trained = (flags['loss'] ?? sftCfg.loss) === 'episode' ? trainDemos.map((d) => episodeTargets(d, d.ids.indexOf(codec.endOfTurn) + 1)) : trainDemos;
  const r = await trainSft({
    demos: trained,
    init: join(dir, 'base'),
    tokenizer: tok,
    tokenizerJson: tokJson,
    out: join(dir, 'run'),
    steps: sftCfg.steps,
    batch: sftCfg.batch,
    lr: sftCfg.lr,
    ...(sftCfg.schedule ? { schedule: sftCfg.schedule } : {}),
    ...(sftCfg.warmupRatio !== undefined ? { warmupRatio: sftCfg.warmupRatio } : {}),
    ...(sftCfg.minLrRatio !== undefined ? { minLrRatio: sftCfg.minLrRatio } : {}),
    seed,
    maxSeqLen: rolloutCfg.maxSeqLen,
    clipNorm: 1,
    ...(flags['save-every'] ? { saveEvery: Number(flags['save-every']) } : {}),
    provider,
    ...(provider === 'cuda' && sftCfg.precision ? { precision: sftCfg.precision } : {}),
    onStep: (m) => void losses.push(m['loss']!),
  });
  const tail = losses.slice(-20);
  console.log(
    `SFT ${sftCfg.steps} steps (${r.rows} × ${r.rowTokens} a step) in ${since()}: loss first ${losses[0]?.toFixed(3)}, mean of last 20 ${(tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(3)} — ${dir}`,
  );
  params = (await loadPolicy(sftPolicyDir(join(dir, 'run')))).params;
}

const verbOf = (action: string) => {
  const a = action.replace(/^Action:\s*/, '');
  const m = /^(go to|open|close|take|move|use|clean|heat|cool|slice|examine|inventory|look)\b/.exec(a);
  return m ? m[1]! : a.split(' ')[0]!;
};

/** Teacher-forced exact-turn accuracy per verb: feeds each demonstration's ids, checks every policy token's argmax. */
async function teacherForced(name: string, ds: readonly Episode[]): Promise<void> {
  const byVerb = new Map<string, { right: number; all: number; verbRight: number }>();
  let tokensRight = 0;
  let tokens = 0;
  const misses = new Map<string, string[]>();
  for (const d of ds) {
    const policy = await cachedPolicy(model, params, 1, { provider });
    const row: number[] = [];
    let turn = 0;
    let turnOk = true;
    let firstWrong = -1;
    let inTurn = 0;
    for (let p = 0; p < d.ids.length; p++) {
      if (d.lossMask[p]) {
        const logits = (await policy.nextLogits([row]))[0]!;
        let best = 0;
        for (let v = 1; v < logits.length; v++) if (logits[v]! > logits[best]!) best = v;
        const ok = best === d.ids[p];
        tokens++;
        if (ok) tokensRight++;
        else if (turnOk) {
          turnOk = false;
          firstWrong = inTurn;
          const verb = verbOf(d.actions[turn] ?? '');
          const list = misses.get(verb) ?? [];
          if (list.length < 6) list.push(`${JSON.stringify(d.actions[turn])}: ${JSON.stringify(tok.decode([best]))} for ${JSON.stringify(tok.decode([d.ids[p]!]))}`);
          misses.set(verb, list);
        }
        inTurn++;
        if (d.ids[p] === codec.endOfTurn) {
          const verb = verbOf(d.actions[turn] ?? '');
          const s = byVerb.get(verb) ?? { right: 0, all: 0, verbRight: 0 };
          s.all++;
          if (turnOk) s.right++;
          // "Action:" and the verb are the turn's first tokens: the verb is right when the first miss comes after it.
          const verbTokens = codec.encodeTurn(`Action: ${verb}`).length;
          if (turnOk || firstWrong >= verbTokens) s.verbRight++;
          byVerb.set(verb, s);
          turn++;
          turnOk = true;
          firstWrong = -1;
          inTurn = 0;
        }
      }
      row.push(d.ids[p]!);
    }
    await policy.close();
  }
  const all = [...byVerb.values()].reduce((a, s) => ({ right: a.right + s.right, all: a.all + s.all, verbRight: a.verbRight + s.verbRight }), { right: 0, all: 0, verbRight: 0 });
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(b, 1)).toFixed(1)}%`;
  console.log(`teacher-forced, ${name}: turns exact ${all.right}/${all.all} = ${pct(all.right, all.all)} (verb right ${pct(all.verbRight, all.all)}), policy tokens ${pct(tokensRight, tokens)}`);
  for (const [verb, s] of [...byVerb].sort((a, b) => b[1].all - a[1].all))
    console.log(`  ${verb.padEnd(10)} ${String(s.right).padStart(4)}/${String(s.all).padEnd(4)} = ${pct(s.right, s.all).padStart(6)}  verb ${pct(s.verbRight, s.all)}`);
  // --misses: the first wrong token of a few missed turns per verb (which part of the command is wrong).
  if (flags['misses']) for (const verb of ['take', 'go to', 'move', 'open']) for (const m of misses.get(verb) ?? []) console.log(`    miss ${m}`);
}

await teacherForced(`held-out (${heldoutDemos.length} ${evalSplit} demos)`, heldoutDemos);
await teacherForced(`train (first ${Math.min(48, trainDemos.length)} demos)`, trainDemos.slice(0, 48));
console.log(`(${since()})`);

if (games > 0) {
  // The ceiling: how many of these games the expert itself wins under the same turn and window limits.
  const expertOnGames = await demos(selectTasks(env, evalSplit, games, seed));
  console.log(`the expert wins ${expertOnGames.filter((d) => d.won).length} of the same ${expertOnGames.length} games within ${rolloutCfg.maxTurns} turns and a ${rolloutCfg.maxSeqLen}-token window`);
  const scorer = await PolicyScorer.create(model, { batch: 2, seqLen: rolloutCfg.maxSeqLen, temperature: 1, provider });
  const ev = await evaluatePolicy(scorer, params, codec, {
    source: realEngineSource(suite),
    split: evalSplit,
    tasks: games,
    seed,
    temperature: 0,
    limits: rolloutCfg,
    label: 'diagnose',
    cache: 'kv',
    provider,
  });
  const s = ev.summary.overall;
  console.log(`greedy rollouts on ${s.episodes} ${evalSplit} games (the pipeline's evaluation): ${s.wins} won (${since()})`);
  for (const r of ev.records) console.log(`  ${r.won ? 'WON ' : '    '}${r.actions.map((a) => a.replace(/^Action:\s*/, '')).join(' | ')}`);
}
