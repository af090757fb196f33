// What an EnvPool worker runs: one long task per shard that owns that shard's real-engine envs
// (each framed by the suite's agent harness, exactly as in the main thread) and answers reset /
// step / close requests arriving on its MessagePort until the pool shuts the shard down. The envs
// stay in this thread between steps, so an episode's state never crosses threads.
import type { MessagePort } from 'node:worker_threads';
import type { TextEnv } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import { realEngineSource } from '@diffworld/grpo';
import type { EnvReply, EnvRequest, ShardTask } from './env-pool.js';

export async function serveShard(task: ShardTask): Promise<number> {
  const suite = envSuite(task.env);
  // Imported games live in a registry per thread: the main thread's registration does not reach here.
  if (task.gamesFile) await suite.loadGames?.(task.gamesFile);
  const source = realEngineSource(suite);
  const envs = new Map<number, TextEnv>();
  const port: MessagePort = task.port;
  let served = 0;
  const answer = async (req: EnvRequest): Promise<EnvReply> => {
    try {
      let env = envs.get(req.env);
      if (!env) envs.set(req.env, (env = source.makeEnv()));
      served++;
      if (req.op === 'reset') return { id: req.id, ok: true, value: await env.reset(req.task, req.seed) };
      if (req.op === 'step') return { id: req.id, ok: true, value: await env.step(req.completion) };
      await env.close?.();
      envs.delete(req.env);
      return { id: req.id, ok: true, value: null };
    } catch (e) {
      return { id: req.id, ok: false, error: (e as Error).message };
    }
  };
  await new Promise<void>((resolve) => {
    port.on('message', (msg: EnvRequest | { op: 'shutdown' }) => {
      if (msg.op === 'shutdown') {
        port.close();
        resolve();
        return;
      }
      void answer(msg).then((r) => port.postMessage(r));
    });
  });
  for (const env of envs.values()) await env.close?.();
  return served;
}
