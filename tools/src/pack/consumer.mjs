// A user's program against the installed tarballs, run by pack-install.test.ts in a scratch project
// outside the workspace: it imports each package by its public name (so only that project's
// node_modules can answer) and calls real functions of it. Plain JavaScript, as a user would write
// it: no TypeScript loader, no "@diffworld/source" condition.
// Usage: node consumer.mjs INPUT.json, where INPUT is {"packages": [names], "tokenizerPath": file}.
// Prints one line per package to stdout: `pack-check {"package", "ok", "detail" | "error"}`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'diffworld-consumer-'));

/** Resets a real engine on the first task of its training split and plays the expert's actions to a win. */
async function playExpert(suite) {
  const [task] = suite.tasks(suite.splits[0]);
  const env = suite.createEnv();
  const first = await env.reset(task);
  assert.ok(first.text.length > 0, 'the reset observation has text');
  const actions = suite.expert(task);
  let last;
  for (const action of actions) {
    last = await env.step(action);
    if (last.done) break;
  }
  await env.close?.();
  assert.equal(last?.info.won, true, `the expert wins ${suite.name} task ${task.id}`);
  return `${suite.name}: reset ${task.id} (${first.text.length} chars), expert won in ${actions.length} steps`;
}

const CHECKS = {
  '@diffworld/config': ({ z, parseConfig, ConfigError }) => {
    const schema = z.strictObject({ lr: z.number().min(0).default(0.1) });
    assert.deepEqual(parseConfig(schema, {}, 'cfg.json'), { lr: 0.1 });
    assert.throws(
      () => parseConfig(schema, { lr: -1 }, 'cfg.json'),
      (e) => e instanceof ConfigError && e.message.includes('lr'),
    );
    return 'parseConfig fills the default and names the key of an out-of-range value';
  },
  '@diffworld/dataset': async ({ createRowWriter, readRows }) => {
    const path = join(work, 'rows.parquet');
    const row = {
      messages: [
        { role: 'user', content: 'You are in a kitchen.' },
        { role: 'assistant', content: 'Action: open fridge' },
      ],
    };
    const writer = createRowWriter(path);
    await writer.write(row);
    await writer.close();
    const back = [];
    for await (const r of readRows(path)) back.push(r);
    assert.deepEqual(
      back.map((r) => r.messages),
      [row.messages],
    );
    return 'a chat row written to Parquet and read back (hyparquet in its sandbox worker)';
  },
  '@diffworld/tokenizer': async ({ Tokenizer, TokenizerPool }) => {
    const text = 'You open the fridge. The fridge is empty.';
    const tok = Tokenizer.load(input.tokenizerPath);
    const { ids } = tok.encode(text, { addSpecialTokens: false });
    assert.ok(ids.length > 0);
    assert.equal(tok.decode(ids), text);
    const pool = new TokenizerPool({ tokenizerPath: input.tokenizerPath, threads: 1 });
    try {
      const packed = await pool.encodeTexts([text], false);
      assert.deepEqual([...packed.ids], ids, 'the worker pool (the built task.js) encodes as the main thread does');
    } finally {
      await pool.close();
    }
    return `tokenizer.json loaded, ${ids.length} ids round-trip, the same ids from a worker pool`;
  },
  '@diffworld/mdlm-core': async ({ parseHfConfig, benchmarkMatMul }) => {
    const cfg = parseHfConfig({ model_type: 'qwen3', vocab_size: 64, hidden_size: 32, num_attention_heads: 4, num_key_value_heads: 2, num_hidden_layers: 2, intermediate_size: 64 });
    assert.equal(cfg.modelType, 'qwen3');
    assert.equal(cfg.dModel, 32);
    assert.equal(cfg.nKvHeads, 2);
    const mm = await benchmarkMatMul({ provider: 'cpu', n: 16, minSeconds: 0 });
    assert.ok(mm.runs >= 1 && mm.gflops > 0, 'a MatMul session ran on ONNX Runtime');
    return `parseHfConfig read a qwen3 config; a 16×16 MatMul ran on onnxruntime-node's CPU provider (${mm.runs} runs)`;
  },
  '@diffworld/env-core': ({ extractActionLine, wilsonInterval, Rng }) => {
    assert.equal(extractActionLine('<think>the fridge</think>\nAction: open fridge 1'), 'open fridge 1');
    const [lo, hi] = wilsonInterval(5, 10);
    assert.ok(lo < 0.5 && hi > 0.5 && lo > 0 && hi < 1);
    assert.equal(new Rng(7).next(), new Rng(7).next());
    return 'extractActionLine, wilsonInterval and a seeded Rng';
  },
  '@diffworld/alfworld': ({ alfworldSuite }) => playExpert(alfworldSuite),
  '@diffworld/sciworld': ({ sciworldSuite }) => playExpert(sciworldSuite),
  '@diffworld/appworld': ({ appworldSuite }) => playExpert(appworldSuite),
  '@diffworld/envs': ({ ENV_NAMES, envSuite }) => {
    assert.deepEqual([...ENV_NAMES].sort(), ['alfworld', 'appworld', 'sciworld']);
    for (const name of ENV_NAMES) assert.equal(envSuite(name).name, name);
    assert.throws(() => envSuite('nethack'), /alfworld/);
    return `envSuite answers ${ENV_NAMES.join(', ')} and names them for an unknown env`;
  },
  '@diffworld/eval': async ({ evaluateAgent, expertPolicy, rougeLScore }) => {
    const { summary, records } = await evaluateAgent({ env: 'alfworld', policy: expertPolicy(), split: 'train', limit: 2, workers: 2 });
    assert.equal(summary.workers, 2);
    assert.deepEqual(
      records.map((r) => r.won),
      [true, true],
    );
    assert.equal(rougeLScore('open the fridge', 'open the fridge').f, 1);
    return 'evaluateAgent played 2 expert episodes in a 2-thread pool (the built worker-task.js); rougeLScore';
  },
  '@diffworld/grpo': ({ groupAdvantages }) => {
    const { advantages, zeroStdShare } = groupAdvantages([1, 0, 1, 1], ['a', 'a', 'b', 'b']);
    assert.ok(advantages[0] > 0 && advantages[1] < 0, 'the winner of group a gets the positive advantage');
    assert.equal(advantages[2], 0);
    assert.equal(zeroStdShare, 0.5);
    return 'groupAdvantages over two groups, one without signal';
  },
};

for (const name of input.packages) {
  let result;
  try {
    const check = CHECKS[name];
    if (check === undefined) throw new Error(`consumer.mjs has no check for ${name}: add one that imports it and calls a real function`);
    result = { package: name, ok: true, detail: await check(await import(name)) };
  } catch (e) {
    result = { package: name, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  process.stdout.write(`pack-check ${JSON.stringify(result)}\n`);
}
rmSync(work, { recursive: true, force: true });
