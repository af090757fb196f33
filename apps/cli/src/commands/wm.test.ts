import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

const root = new URL('../../../../', import.meta.url).pathname;
const data = join(root, 'test-data/wm/alfworld-train.jsonl');
const evalData = join(root, 'test-data/wm/alfworld-eval.jsonl');
const tokenizer = join(root, 'test-data/wm/tokenizer.json');
const config = join(root, 'apps/cli/configs/train-wm.tiny.json');

describe('diffworld wm train', () => {
  it('has help with examples', async () => {
    const r = await runCli('wm', 'train', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: diffworld wm train');
    expect(r.out).toContain('--resume');
  });

  it('bad input exits 2 and names what is wrong', async () => {
    const out = mkdtempSync(join(tmpdir(), 'wm-cli-'));
    const cases: [string[], string][] = [
      [['--tokenizer', tokenizer, '--out', out], '--data is required'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--objective', 'gpt'], 'objective: must be one of "ar", "mdlm", "bd3", got "gpt"'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--steps', 'x'], '--steps must be an integer'],
      [['--data', data, '--tokenizer', join(out, 'none.json'), '--out', out], 'no such file'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--provider', 'tpu'], '--provider must be one of'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--steps-per-call', '0'], '--steps-per-call must be a positive integer or "auto"'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--io-binding', 'yes'], '--io-binding must be auto, on or off, got "yes"'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--io-binding', 'on', '--provider', 'webgpu'], '--io-binding on runs on the cuda or cpu provider, not webgpu'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--cuda-graph', 'maybe'], '--cuda-graph must be on or off, got "maybe"'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--precision', 'fp8'], '--precision must be float32, bfloat16 or float16'],
      [['--data', data, '--tokenizer', tokenizer, '--out', out, '--resume'], 'holds no run'],
    ];
    const bad = join(out, 'bad.json');
    writeFileSync(bad, JSON.stringify({ objective: 'bd3', lerning_rate: 1 }));
    cases.push([['--data', data, '--tokenizer', tokenizer, '--out', out, '--config', bad], 'lerning_rate: unknown key']);
    for (const [args, message] of cases) {
      const r = await runCli('wm', 'train', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(message);
    }
  });

  it('trains the committed tiny config for a few steps, then --auto-resume continues it', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wm-cli-')), 'run');
    const common = [
      'wm',
      'train',
      '--config',
      config,
      '--data',
      data,
      '--eval-data',
      evalData,
      '--tokenizer',
      tokenizer,
      '--out',
      out,
      '--provider',
      'cpu',
      '--save-every',
      '2',
      '--log-every',
      '1',
      '--eval-every',
      '2',
    ];
    const first = await runCli(...common, '--steps', '2', '--auto-resume');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('bd3 world model after 2 steps');
    expect(first.err).toContain('step 2/2');
    // The second half runs through the IO-bound step (what CUDA gets by default), from the first's checkpoint.
    const second = await runCli(...common, '--steps', '4', '--auto-resume', '--io-binding', 'on');
    expect(second.code, second.err).toBe(0);
    expect(second.err).toContain('resuming');
    expect(second.err).toContain('cpu (IO binding)');
    expect(second.err).toContain('step 4/4');
    const steps = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { step: number }).step);
    expect(steps).toEqual([1, 2, 3, 4]);
    expect(existsSync(join(out, 'model', 'config.json'))).toBe(true);
  }, 120_000);

  it('a malformed row stops the run naming FILE:LINE (exit 2, no run left behind); --skip-bad trains without it and lists it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wm-bad-'));
    const lines = readFileSync(data, 'utf8').trim().split('\n').slice(0, 40);
    lines.splice(2, 0, '{"messages": [{"role": "user", "content": "cut off'); // line 3: not JSON
    lines.splice(5, 0, '{"messages": [{"role": "robot", "content": "hi"}]}'); // line 6: JSON, not a chat row
    const rows = join(dir, 'rows.jsonl');
    writeFileSync(rows, `${lines.join('\n')}\n`);
    const common = ['wm', 'train', '--config', config, '--data', rows, '--tokenizer', tokenizer, '--provider', 'cpu', '--steps', '1', '--eval-every', '0'];
    const strict = await runCli(...common, '--out', join(dir, 'strict'));
    expect(strict.code, strict.err).toBe(2);
    expect(strict.err).toContain(`${rows}:3: not valid JSON`);
    expect(strict.err).toContain('--skip-bad');
    expect(existsSync(join(dir, 'strict', 'train_config.json'))).toBe(false); // the fixed file trains without --resume
    const skip = await runCli(...common, '--out', join(dir, 'skip'), '--skip-bad');
    expect(skip.code, skip.err).toBe(0);
    const listed = skip.err.split('\n').filter((l) => l.startsWith('skipped '));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toContain(`skipped ${rows}:3: not valid JSON`);
    expect(listed[1]).toMatch(new RegExp(`^skipped ${rows.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: .*role`));
    expect(skip.err).toContain('2 malformed row(s) skipped (listed above)');
    // Every one of the 40 good rows is accounted for: trained, held out or dropped with a reason.
    const m = /(\d+) train \/ (\d+) eval examples \((\d+) too long, (\d+) without a target dropped, 2 malformed row\(s\) skipped\)/.exec(skip.out);
    expect(m, skip.out).not.toBeNull();
    expect(m!.slice(1).reduce((a, x) => a + Number(x), 0)).toBe(40);
  }, 60_000);

  it('--precision float16 trains with a loss scale in the metrics', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wm-cli-')), 'run');
    const r = await runCli('wm', 'train', '--config', config, '--data', data, '--tokenizer', tokenizer, '--out', out, '--provider', 'cpu', '--steps', '2', '--precision', 'float16');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('float16 MatMuls with dynamic loss scaling');
    const scales = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { loss_scale?: number }).loss_scale);
    expect(scales[0]).toBe(2 ** 16);
  }, 120_000);
});

describe('diffworld wm export', () => {
  it('writes an ONNX file of a transformers checkpoint that ONNX Runtime loads; bad input exits 2', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wm-export-')), 'm.onnx');
    const model = join(root, 'test-data/golden/hf/qwen3/float32');
    const r = await runCli('wm', 'export', '--model', model, '--out', out, '--kv-cache');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('qwen3 2×');
    const { InferenceSession } = await import('onnxruntime-node');
    const s = await InferenceSession.create(readFileSync(out));
    expect(s.inputNames).toEqual(expect.arrayContaining(['input_ids', 'position_ids', 'attention_bias', 'past.0.key']));
    expect(s.outputNames).toEqual(expect.arrayContaining(['logits', 'present.0.key']));
    const missing = await runCli('wm', 'export', '--model', join(root, 'test-data/wm'), '--out', out);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('not a checkpoint directory');
  });
});
