// `diffworld wm serve`: bad arguments exit 2 naming the option; the arguments become a running
// server on a tiny trained model (token, batching, port 0), which answers both routes.
import { alfworldRowsFile, saveTinyQwen3, trainTinyWorldModel } from '@diffworld/mdlm-core/testing';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../command.js';
import { runCli } from '../testing.js';
import { startFromArgs, WM_SERVE_COMMANDS } from './wm-serve.js';

describe('diffworld wm serve', () => {
  it('refuses bad arguments with exit 2, naming the option', async () => {
    for (const [argv, message] of [
      [['wm', 'serve'], '--model is required'],
      [['wm', 'serve', '--model', 'x', '--port', '70000'], '--port must be in 0..65535'],
      [['wm', 'serve', '--model', 'x', '--max-batch', '0'], '--max-batch must be a positive integer'],
      [['wm', 'serve', '--model', 'x', '--token', 'short'], '--token must be at least 8 characters'],
      [['wm', 'serve', '--model', 'x', '--provider', 'tpu'], '--provider must be one of'],
      [['wm', 'serve', '--model', 'x', '--scheduling', 'eager'], '--scheduling must be one of auto, continuous, batch'],
    ] as const) {
      const r = await runCli(...argv);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(message);
    }
  });

  it('serves a checkpoint with the options given', async () => {
    const dir = await trainTinyWorldModel({ data: alfworldRowsFile(8), settings: { steps: 2 } });
    const command = WM_SERVE_COMMANDS[0]!;
    const lines: string[] = [];
    const args = parseCommandArgs(command, ['--model', dir, '--port', '0', '--token', 'a-long-token', '--max-batch', '4', '--max-wait-ms', '10', '--model-id', 'tiny', '--provider', 'cpu']);
    const server = await startFromArgs(args, { out: () => {}, err: (l) => lines.push(l) });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.join('\n')).toContain('serving tiny on');
      expect(lines.join('\n')).toContain('max batch 4, max wait 10 ms');
      expect(server.scheduling).toBe('batch'); // a bd3 checkpoint: auto keeps dynamic batching
      const auth = { authorization: 'Bearer a-long-token' };
      expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);
      const chat = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ model: 'tiny', messages: [{ role: 'user', content: 'Action: look' }], max_tokens: 8 }),
      });
      expect(chat.status).toBe(200);
      const proxy = await fetch(`${server.url}/predict`, { method: 'POST', headers: auth, body: JSON.stringify({ state: [], action: 'look', max_tokens: 8 }) });
      expect(typeof ((await proxy.json()) as { generated_text: unknown }).generated_text).toBe('string');
    } finally {
      await server.close();
    }
    await expect(startFromArgs(parseCommandArgs(command, ['--model', dir, '--port', '0', '--scheduling', 'continuous', '--provider', 'cpu']), { out: () => {}, err: () => {} })).rejects.toThrow(
      /--scheduling continuous is for ar checkpoints; .* is bd3/,
    );
  }, 120_000);

  it('serves an ar checkpoint with continuous batching (auto), or dynamic batching when asked', async () => {
    const dir = await saveTinyQwen3({ generationConfig: { objective: 'ar' } });
    const command = WM_SERVE_COMMANDS[0]!;
    for (const [flag, mode, line] of [
      [[], 'continuous', 'continuous batching, 3 rows'],
      [['--scheduling', 'batch'], 'batch', 'max batch 3'],
    ] as const) {
      const lines: string[] = [];
      const server = await startFromArgs(parseCommandArgs(command, ['--model', dir, '--port', '0', '--max-batch', '3', '--provider', 'cpu', ...flag]), { out: () => {}, err: (l) => lines.push(l) });
      try {
        expect(server.scheduling).toBe(mode);
        expect(lines.join('\n')).toContain(line);
        const chat = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'Action: look' }], max_tokens: 5, seed: 1 }) });
        expect(chat.status).toBe(200);
      } finally {
        await server.close();
      }
    }
  }, 120_000);
});
