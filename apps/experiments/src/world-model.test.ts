// The world model rollouts talk to, served over HTTP: requests reach the server in the env's
// world-model row format and its answers come back through the simulated env.
import { ENV_SUITES } from '@diffworld/envs';
import { worldModelSource } from '@diffworld/grpo';
import { describe, expect, it } from 'vitest';
import { openWorldModel } from './world-model.js';

const suite = ENV_SUITES.alfworld;
const task = suite.tasks('train')[0]!;

describe('world models of the pipeline', () => {
  it('a remote world model (OpenAI-compatible URL) answers the simulated env', async () => {
    const { createServer } = await import('node:http');
    const bodies: { messages: { role: string; content: string }[] }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET') return res.end(JSON.stringify({ data: [{ id: 'tiny-wm' }] }));
        bodies.push(JSON.parse(body) as (typeof bodies)[number]);
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'It is a plain object.' }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const wm = await openWorldModel(
        'alfworld',
        { kind: 'remote', urls: `http://127.0.0.1:${port}`, protocol: 'openai' },
        { temperature: 0, topP: 1, repetitionPenalty: 1.3, maxNewTokens: 16, threshold: 0.85 },
      );
      const env = worldModelSource(suite, wm).makeEnv();
      const first = await env.reset(task, task.seed);
      const target = first.admissible!.find((a) => a.startsWith('go to '))!.slice('go to '.length);
      const r = await env.step(suite.agent.formatAction(`examine ${target}`));
      expect(r.observation.text).toContain('It is a plain object.');
      expect(bodies).toHaveLength(1);
      expect(bodies[0]!.messages[1]!.content).toMatch(new RegExp(`^State: \\[.*\\n\\nAction: examine ${target}$`, 's'));
    } finally {
      server.close();
    }
  });
});
