// The load generator of load.bench.ts, in its own process so that the server's CPU time and
// event loop are the server's alone (clients live elsewhere in real use). Forked by the bench;
// takes one job message, answers with the phase's results, exits.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

export interface LoadJob {
  url: string;
  /** Index of the first request (its seed and prompt row), so slices of one run differ. */
  first: number;
  count: number;
  concurrency: number;
  maxSeconds: number;
  /** max_tokens of request i: maxTokens[i mod length] (one value: every request the same). */
  maxTokens: number[];
  /** Chat rows (JSONL) whose messages but the last are the prompts; request i sends row i mod n. */
  rowsFile: string;
}

export interface LoadResult {
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  seconds: number;
  /** Latencies of the 200 answers, ms. */
  latencies: number[];
  completionTokens: number;
}

/** The prompts of a chat-rows file: each row's messages without the last (the reference). */
function readPrompts(file: string): { role: string; content: string }[][] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { messages: { role: string; content: string }[] }).messages.slice(0, -1));
}

/**
 * One POST over a kept-alive connection; resolves with the status and parsed JSON body. node:http
 * rather than fetch: undici's fetch costs the client ~1 ms of CPU per request, which on a 2-core
 * machine the client would take from the server it measures (about half a core at 400 req/s).
 */
function post(agent: Agent, url: URL, body: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (e) {
          reject(e);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function runLoad(job: LoadJob): Promise<LoadResult> {
  const rows = readPrompts(job.rowsFile);
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const url = new URL(`${job.url}/v1/chat/completions`);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0,
    ok = 0,
    completionTokens = 0;
  const t0 = performance.now();
  const deadline = t0 + job.maxSeconds * 1000;
  const worker = async () => {
    while (next < job.count && performance.now() < deadline) {
      const i = job.first + next++;
      const start = performance.now();
      let status: string;
      try {
        const res = await post(agent, url, JSON.stringify({ messages: rows[i % rows.length], seed: i, temperature: 0, max_tokens: job.maxTokens[i % job.maxTokens.length] }));
        const body = res.json as { usage?: { completion_tokens: number } };
        status = String(res.status);
        if (res.status === 200) {
          ok++;
          completionTokens += body.usage!.completion_tokens;
          latencies.push(performance.now() - start);
        }
      } catch (e) {
        status = `error: ${(e as Error).message}`;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  agent.destroy();
  return { sent: next, ok, statuses, seconds: (performance.now() - t0) / 1000, latencies, completionTokens };
}

process.once('message', (job: LoadJob) => {
  void runLoad(job).then((r) => process.send!(r, () => process.exit(0)));
});
