// wm sample, wm generate and eval wm end to end: a tiny AR world model trained here with
// `wm train` memorises 12 transitions; eval wm on it and on an OpenAI-compatible test server
// equals eval score over the same outputs; wm generate killed mid-run resumes to the same file.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { worldModelUserTurn, type ChatMessage } from '@diffworld/dataset';
import { TINY_WM_MODEL, TINY_WM_RUN, TINY_WM_TOKENIZER } from '@diffworld/mdlm-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

const root = new URL('../../../../', import.meta.url).pathname;
const tokenizer = TINY_WM_TOKENIZER;
const OBJECTS = ['mug', 'apple', 'knife', 'bowl', 'egg', 'pan'];
const N = 12;

const rows = Array.from({ length: N }, (_, i) => ({
  messages: [
    { role: 'system', content: `Room ${i % 3}` },
    { role: 'user', content: worldModelUserTurn([{ role: 'user', content: `Task ${i % 2}` }], `open box ${i}`) },
    { role: 'assistant', content: `Box ${i} holds a ${OBJECTS[i % OBJECTS.length]}.` },
  ] as ChatMessage[],
}));

const dir = mkdtempSync(join(tmpdir(), 'eval-wm-cli-'));
const data = join(dir, 'tiny.jsonl');
const jsonl = (rs: readonly object[]) => rs.map((r) => JSON.stringify(r)).join('\n') + '\n';
let model = '';

beforeAll(async () => {
  writeFileSync(data, jsonl(rows));
  const config = join(dir, 'train.json');
  writeFileSync(config, JSON.stringify({ ...TINY_WM_RUN, objective: 'ar', steps: 250 })); // the CLI reads the fixture's run as a config file
  const r = await runCli('wm', 'train', '--config', config, '--data', data, '--tokenizer', tokenizer, '--out', join(dir, 'run'), '--provider', 'cpu');
  expect(r.code, r.err).toBe(0);
  model = join(dir, 'run', 'model');
}, 300_000);

const summaryOf = (path: string, name: string) => (JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>)[name]!;
const without = (s: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));

describe('diffworld wm sample', () => {
  it('prints the memorised observation; --json has stats; bad input exits 2', async () => {
    const prompt = join(dir, 'row.json');
    writeFileSync(prompt, JSON.stringify(rows[3]));
    const r = await runCli('wm', 'sample', '--model', model, '--prompt-file', prompt, '--provider', 'cpu');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('Box 3 holds a bowl.');
    expect(r.err).toContain('finish stop');
    const j = await runCli('wm', 'sample', '--model', model, '--prompt-file', prompt, '--provider', 'cpu', '--json', '--samples', '2', '--temperature', '1', '--seed', '4');
    const lines = j.out.split('\n').map((l) => JSON.parse(l) as { seed: number; stats: { generatedTokens: number } });
    expect(lines.map((l) => l.seed)).toEqual([4, 5]);
    expect(lines[0]!.stats.generatedTokens).toBeGreaterThan(0);
    const text = join(dir, 'q.txt');
    writeFileSync(text, 'hello');
    const cases: [string[], string][] = [
      [['--prompt-file', prompt], '--model is required'],
      [['--model', join(dir, 'nope'), '--prompt-file', prompt], 'no such directory'],
      [['--model', dir, '--prompt-file', prompt], 'no config.json'],
      [['--model', model, '--prompt-file', join(dir, 'none.json')], 'no such file'],
      [['--model', model, '--prompt-file', prompt, '--temperature=-1'], '--temperature must be a finite number ≥ 0'],
      [['--model', model, '--prompt-file', prompt, '--strategy', 'fast'], '--strategy must be one of'],
      [['--model', model, '--prompt-file', prompt, '--anchor', 'x'], '--anchor must be AT:TEXT'],
      [['--model', model, '--prompt-file', text, '--anchor', '0:Box'], '--anchor needs a diffusion model'],
      // as many new tokens as the model has positions leaves the prompt none
      [['--model', model, '--prompt-file', prompt, '--max-new-tokens', String(TINY_WM_MODEL['max_position_embeddings'])], 'maxPromptTokens must be an integer ≥ 1'],
    ];
    for (const [args, message] of cases) {
      const c = await runCli('wm', 'sample', ...args);
      expect(c.code, args.join(' ')).toBe(2);
      expect(c.err, args.join(' ')).toContain(message);
    }
    const help = await runCli('wm', 'sample', '--help');
    expect(help.out).toContain('Examples:');
  }, 60_000);
});

describe('diffworld eval wm', () => {
  it('on a checkpoint: every memorised row matches, and the summary equals eval score over the same outputs', async () => {
    const out = join(dir, 'eval-local');
    const r = await runCli('eval', 'wm', '--model', model, '--data', data, '--out', out, '--provider', 'cpu', '--samples', '2', '--temperature', '1', '--workers', '0');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('tiny: 12 rows scored');
    // MAUVE over 12 rows is not a headline figure: not on the headline line, on its own line with the caveat.
    const [headline, mauveLine] = r.out.split('\n');
    expect(headline).toMatch(/^tiny: 12 rows scored — exact /);
    expect(headline).not.toMatch(/MAUVE/);
    expect(mauveLine).toMatch(/^tiny: MAUVE \d\.\d{4} over 12 predictions vs 12 references \(64-dim hashed n-grams, 2 buckets\); rough: fewer than 1,000 rows, not a headline figure/);
    const outputs = join(out, 'tiny_outputs.jsonl');
    const first = JSON.parse(readFileSync(outputs, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['index', 'config', 'prediction_raw', 'reference', 'generated', 'ground_truth']);
    expect(existsSync(join(out, 'tiny_samples', '1_outputs.jsonl'))).toBe(true);
    const s = summaryOf(join(out, 'eval_summary.json'), 'tiny');
    expect(s['exact_match']).toBeGreaterThanOrEqual(0.75); // temperature 1 on a memorised model: nearly always right
    expect((s['generation'] as Record<string, unknown>)['model']).toContain('(ar)');
    expect((s['generation'] as Record<string, number>)['forwards_per_token']).toBeGreaterThan(1); // ar: one forward per token plus the one that chose the stop id
    expect((s['sample_diversity'] as Record<string, unknown>)['prompts']).toBe(12);
    const again = await runCli('eval', 'score', '--pred', outputs, '--out', join(dir, 'score-local'), '--diversity', '--mauve', '--workers', '0');
    expect(again.code, again.err).toBe(0);
    expect(without(s, 'generation', 'sample_diversity')).toEqual(summaryOf(join(dir, 'score-local', 'eval_summary.json'), 'tiny'));

    const greedy = await runCli('eval', 'wm', '--model', model, '--data', data, '--out', join(dir, 'eval-greedy'), '--provider', 'cpu', '--workers', '0');
    expect(greedy.code, greedy.err).toBe(0);
    expect(summaryOf(join(dir, 'eval-greedy', 'eval_summary.json'), 'tiny')['exact_match']).toBe(1);
  }, 120_000);

  describe('on an OpenAI-compatible endpoint', () => {
    let server: Server;
    let url = '';
    const seen: { model: string; temperature: number; max_tokens: number }[] = [];
    beforeAll(async () => {
      // Answers each prompt with its row's reference, except box 5 (HTTP 400 → an ERROR row).
      const answers = new Map(rows.map((r) => [r.messages[1]!.content, r.messages[2]!.content]));
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          const q = JSON.parse(body) as { model: string; temperature: number; max_tokens: number; messages: ChatMessage[] };
          seen.push(q);
          const user = q.messages.at(-1)!.content;
          if (req.url !== '/v1/chat/completions' || user.endsWith('open box 5')) {
            res.writeHead(400, { 'content-type': 'application/json' }).end('{"error": "bad request"}');
            return;
          }
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: answers.get(user) ?? 'unknown' }, finish_reason: 'stop' }] }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('scores the served answers; ERROR rows are kept in the outputs and dropped by scoring', async () => {
      const out = join(dir, 'eval-remote');
      const r = await runCli('eval', 'wm', '--model', url, '--data', data, '--out', out, '--name', 'served', '--model-name', 'wm', '--max-new-tokens', '64', '--workers', '0');
      expect(r.code, r.err).toBe(0);
      expect(seen.every((q) => q.model === 'wm' && q.temperature === 0 && q.max_tokens === 64)).toBe(true);
      const outputs = join(out, 'served_outputs.jsonl');
      const lines = readFileSync(outputs, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { prediction_raw: string });
      expect(lines).toHaveLength(12);
      expect(lines[5]!.prediction_raw).toMatch(/^ERROR: PolicyLimitError: .*HTTP 400: bad request$/);
      const s = summaryOf(join(out, 'eval_summary.json'), 'served');
      expect(s['exact_match']).toBe(1);
      expect(s['num_samples']).toBe(11);
      expect(s['num_dropped_errors']).toBe(1);
      const again = await runCli('eval', 'score', '--pred', outputs, '--out', join(dir, 'score-remote'), '--diversity', '--mauve', '--workers', '0');
      expect(again.code, again.err).toBe(0);
      expect(without(s, 'generation')).toEqual(summaryOf(join(dir, 'score-remote', 'eval_summary.json'), 'served'));
      expect((s['generation'] as Record<string, unknown>)['tokens_per_second']).toBeUndefined();
      // wm generate on the same server: the ERROR row makes the exit code 1, a rerun retries only it
      const gen = await runCli('wm', 'generate', '--model', url, '--data', data, '--out', out, '--name', 'served');
      expect(gen.code).toBe(1);
      expect(gen.out).toContain('11 resumed, 1 generated, 1 ERROR');
      expect(seen.at(-1)!.max_tokens).toBe(2048); // llm_training/evaluate.py's default
    }, 60_000);
  });

  it('bad input exits 2 with a clear message', async () => {
    const cases: [string[], string][] = [
      [['--data', data, '--out', dir], '--model is required'],
      [['--model', model, '--data', join(dir, 'none.jsonl'), '--out', dir], 'no such file'],
      [['--model', model, '--data', data, '--out', dir, '--samples', '0'], '--samples must be a positive integer'],
      [['--model', model, '--data', data, '--out', dir, '--normalization', 'x'], '--normalization must be one of'],
      [['--model', 'ftp://host', '--data', data, '--out', dir], 'no such directory'],
      [['--model', model, '--data', data, '--out', dir, '--provider', 'tpu'], '--provider must be one of'],
      [['--model', model, '--data', data, '--out', dir, '--top-p', '2'], '--top-p must be in (0, 1]'],
    ];
    const noTarget = join(dir, 'no-target.jsonl');
    writeFileSync(noTarget, jsonl([{ messages: [{ role: 'user', content: 'hi' }] }]));
    cases.push([['--model', model, '--data', noTarget, '--out', join(dir, 'nt')], 'must end with the assistant message']);
    for (const [args, message] of cases) {
      const c = await runCli('eval', 'wm', ...args);
      expect(c.code, args.join(' ')).toBe(2);
      expect(c.err, args.join(' ')).toContain(message);
    }
    expect((await runCli('eval', 'wm', '--help')).out).toContain('Examples:');
  }, 60_000);
});

describe('diffworld wm generate', () => {
  it('killed with SIGKILL mid-run, then rerun, ends with the same file as an uninterrupted run', async () => {
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, jsonl(Array.from({ length: 4 }, () => rows).flat()));
    const common = ['wm', 'generate', '--model', model, '--data', big, '--provider', 'cpu', '--batch-size', '1', '--temperature', '1', '--name', 'big'];
    const whole = await runCli(...common, '--out', join(dir, 'gen-whole'));
    expect(whole.code, whole.err).toBe(0);
    const out = join(dir, 'gen-killed');
    const file = join(out, 'big_outputs.jsonl');
    const bin = join(root, 'apps/cli/bin/diffworld.mjs');
    const killedAt = await new Promise<number>((resolve, reject) => {
      const p = spawn(process.execPath, [bin, ...common, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setInterval(() => {
        const n = existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0;
        if (n >= 5) {
          clearInterval(timer);
          p.kill('SIGKILL');
          resolve(n);
        }
      }, 5);
      p.on('error', reject);
      p.on('close', (code) => {
        clearInterval(timer);
        if (code !== null) reject(new Error(`the child finished (code ${code}) before it was killed: ${stderr}`));
      });
    });
    expect(killedAt).toBeLessThan(48);
    const rest = await runCli(...common, '--out', out);
    expect(rest.code, rest.err).toBe(0);
    expect(rest.err).toContain('resuming');
    expect(rest.out).toMatch(/rows\/s, \d+ tokens\/s, [\d.]+ forwards\/token/);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(dir, 'gen-whole', 'big_outputs.jsonl'), 'utf8'));
  }, 120_000);
});
