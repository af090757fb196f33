import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEpisodeRecord, type EpisodeRecord } from '@diffworld/env-core';
import type { AgentSummary } from '@diffworld/eval';
import { ENV_NAMES, envSuite } from '@diffworld/envs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';

const root = mkdtempSync(join(tmpdir(), 'diffworld-eval-agent-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function readRun(dir: string): { records: EpisodeRecord[]; summary: AgentSummary } {
  const records = readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const check = parseEpisodeRecord(JSON.parse(l));
      if (!check.ok) throw new Error(check.issues.join('; '));
      return check.value;
    });
  return { records, summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as AgentSummary };
}

describe('diffworld eval agent', () => {
  for (const env of ENV_NAMES) {
    it(`the expert scores 100% on a few tasks of every ${env} split`, async () => {
      for (const split of envSuite(env).splits) {
        const out = join(root, `expert-${env}-${split}`);
        const r = await runCli('eval', 'agent', '--env', env, '--policy', 'expert', '--split', split, '--limit', '3', '--seed', '4', '--out', out);
        expect(r.code, r.err).toBe(0);
        expect(r.out).toContain(`${env}/${split} expert: success 100.0% `);
        const { records, summary } = readRun(out);
        expect(records).toHaveLength(3);
        expect(records.every((x) => x.won && x.env === env && x.split === split)).toBe(true);
        expect(summary.overall.successRate).toBe(1);
        expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<figure class="chart" data-chart="success"');
        expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('success: **100.0%**');
      }
    });
  }

  it('the random policy scores near 0 on ALFWorld over 100 games, with 2 workers and progress on stderr', async () => {
    const out = join(root, 'random-alfworld');
    const metrics = join(root, 'metrics.jsonl');
    writeFileSync(metrics, '{"step": 0, "loss": 2.0}\n{"step": 10, "loss": 1.2}\n');
    const r = await runCli(
      'eval',
      'agent',
      '--env',
      'alfworld',
      '--policy',
      'random',
      '--split',
      'eval_in_distribution',
      '--limit',
      '100',
      '--workers',
      '2',
      '--seed',
      '1',
      '--out',
      out,
      '--metrics',
      metrics,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/eval agent: alfworld\/eval_in_distribution, policy random\(seed=1\), 100 tasks, 2 worker\(s\)/);
    expect(r.err).toMatch(/100\/100 episodes/);
    const { records, summary } = readRun(out);
    expect(records).toHaveLength(100);
    expect(summary.workers).toBe(2);
    expect(summary.overall.successRate).toBeLessThan(0.2);
    expect(summary.overall.successCI95[1]).toBeLessThan(0.25);
    expect(Object.keys(summary.byTaskType).length).toBe(6);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('data-chart="curve"');
  }, 120_000);

  it('plays against an OpenAI-compatible URL', async () => {
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; messages: { content: string }[] };
        const first = /Admissible commands:\n- (.*)/.exec(body.messages.at(-1)!.content)![1];
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `Action: ${first}` } }], model: body.model }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const out = join(root, 'remote');
      const r = await runCli('eval', 'agent', '--env', 'alfworld', '--policy', url, '--model', 'first-command', '--split', 'train', '--limit', '2', '--out', out);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`${url}/v1/chat/completions (model first-command)`);
      expect(readRun(out).records.every((x) => x.steps === 50)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it('a served policy that answers 400 after some requests truncates those episodes and the run goes on; a wrong --model is one line, exit 2', async () => {
    // Serves model "small": the first 5 requests get the first admissible command, later ones a 400
    // as vLLM answers a conversation longer than the model's context; other model names get a 404.
    let served = 0;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { model: string; messages: { content: string }[] };
        const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (body.model !== 'small') return json(404, { error: { message: `The model \`${body.model}\` does not exist.`, type: 'NotFoundError' } });
        if (++served > 5) return json(400, { error: { message: "This model's maximum context length is 2048 tokens.", type: 'BadRequestError' } });
        const first = /Admissible commands:\n- (.*)/.exec(body.messages.at(-1)!.content)![1];
        json(200, { choices: [{ message: { role: 'assistant', content: `Action: ${first}` } }] });
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const out = join(root, 'remote-truncated');
      const r = await runCli('eval', 'agent', '--env', 'alfworld', '--policy', url, '--model', 'small', '--split', 'train', '--limit', '2', '--concurrency', '1', '--out', out);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/over 2 episodes/);
      expect(r.out).toContain(`2 of 2 episodes truncated: the policy could not answer (counted as not won; first, `);
      expect(r.out).toContain(`answered HTTP 400: This model's maximum context length is 2048 tokens.)`);
      const { records, summary } = readRun(out);
      expect(records.map((x) => x.truncated !== undefined)).toEqual([true, true]);
      expect(records.reduce((n, x) => n + x.steps, 0)).toBe(5);
      expect(summary.overall.truncated).toBe(2);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('**2 of 2 episodes truncated because the policy could not answer');
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('id="truncated"');

      const wrong = await runCli('eval', 'agent', '--env', 'alfworld', '--policy', url, '--model', 'big', '--split', 'train', '--limit', '2', '--out', join(root, 'remote-wrong-model'));
      expect(wrong.code).toBe(2);
      const lines = wrong.err.split('\n').filter((l) => !l.startsWith('eval agent: '));
      expect(lines).toEqual([
        `diffworld eval agent: [eval.agent] ${url}/v1/chat/completions: HTTP 404 for model "big": The model \`big\` does not exist. (a model name the server does not serve, or a wrong URL; GET ${url}/v1/models lists the served models)`,
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it('rejects unknown envs, splits and policies with exit code 2', async () => {
    const base = ['eval', 'agent', '--out', join(root, 'bad')];
    expect(await runCli(...base, '--env', 'nethack', '--policy', 'expert', '--split', 'train')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--env must be one of alfworld, sciworld, appworld/),
    });
    expect(await runCli(...base, '--env', 'sciworld', '--policy', 'expert', '--split', 'eval_in_distribution')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown split "eval_in_distribution" for sciworld: one of train, dev, test/),
    });
    expect(await runCli(...base, '--env', 'alfworld', '--policy', 'gpt', '--split', 'train')).toMatchObject({ code: 2, err: expect.stringMatching(/--policy must be expert, random or an http/) });
    expect(await runCli(...base, '--env', 'alfworld', '--policy', 'expert', '--split', 'train', '--limit', '0')).toMatchObject({ code: 2, err: expect.stringMatching(/--limit must be at least 1/) });
  });
});
