// A piscina pool that tokenizes a corpus shard by shard on worker threads. Results come back in
// input order whatever order the shards finish in.
import { availableParallelism } from 'node:os';
import { workerEntry, workerExecArgv } from '@diffworld/dataset';
import { Piscina } from 'piscina';
import type { ChatMessage, ChatTemplateOptions } from '../chat.js';
import { TokenizerError } from '../errors.js';
import { concatPacked, type PackedIds } from './packed.js';
import type { ShardTask } from './task.js';

const WORKER = workerEntry(import.meta.url, { source: './worker.mjs', built: './task.js' });

export interface PoolOptions {
  /** Path of the tokenizer.json every worker loads (checked here first). */
  tokenizerPath: string;
  /** Worker threads (default: available cores). */
  threads?: number;
  /** Rows per shard (default 256). */
  shardRows?: number;
}

export class TokenizerPool {
  private readonly pool: Piscina<ShardTask, PackedIds>;
  private readonly shardRows: number;

  constructor(private readonly opts: PoolOptions) {
    const threads = opts.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) {
      throw new TokenizerError([{ code: 'bad_option', where: 'TokenizerPool', option: 'threads', detail: `must be a positive integer, got ${threads}` }]);
    }
    this.shardRows = opts.shardRows ?? 256;
    this.pool = new Piscina({ filename: WORKER, minThreads: threads, maxThreads: threads, idleTimeout: 60_000, execArgv: workerExecArgv(import.meta.url) });
  }

  get threads(): number {
    return this.pool.maxThreads;
  }

  async encodeTexts(texts: readonly string[], addSpecialTokens = true): Promise<PackedIds> {
    return this.runShards(texts, (part) => ({ kind: 'texts', tokenizerPath: this.opts.tokenizerPath, texts: part, addSpecialTokens }));
  }

  async encodeChats(chats: readonly ChatMessage[][], chat: ChatTemplateOptions = {}): Promise<PackedIds> {
    return this.runShards(chats, (part) => ({ kind: 'chats', tokenizerPath: this.opts.tokenizerPath, chats: part, chat }));
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async runShards<T>(items: readonly T[], task: (part: T[]) => ShardTask): Promise<PackedIds> {
    const jobs: Promise<PackedIds>[] = [];
    for (let i = 0; i < items.length; i += this.shardRows) jobs.push(this.pool.run(task(items.slice(i, i + this.shardRows))));
    return concatPacked(await Promise.all(jobs));
  }
}
