// The one stage runner of the experiments: a stage's directory is named by a hash of its name and
// inputs (its settings and the results of the stages it reads), and holds result.json once it has
// finished. A rerun with the same inputs finds result.json and skips the stage; changed settings or
// a changed upstream result give another directory, so stale work is never reused. Work inside a
// directory that has no result.json yet (a killed run) is continued by the stage itself: trainers
// resume from their checkpoints, evaluations from their stored parts. Every outcome records its
// time, the machine that produced it and when, so a report assembled over several sessions (or
// several GPU leases) can say which produced which stage.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function stageHash(name: string, inputs: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ stage: name, inputs }))
    .digest('hex')
    .slice(0, 16);
}

export interface StageOutcome<T> {
  name: string;
  dir: string;
  hash: string;
  result: T;
  /** True when result.json was already there (nothing ran in this invocation). */
  cached: boolean;
  seconds: number;
  /** Where and when the stage finished (this invocation's, or the stored one's when cached). */
  host: string;
  session: string | null;
  finishedAt: string;
}

interface StoredResult<T> {
  stage: string;
  hash: string;
  finishedAt: string;
  seconds: number;
  host?: string;
  session?: string | null;
  result: T;
}

/**
 * What a downstream stage hashes of an upstream one: its hash and its stored result, so a stage that
 * is run again (its result.json removed) and comes out differently invalidates what read it.
 */
export const artefact = <T>(s: StageOutcome<T>) => ({ hash: s.hash, result: s.result });

const fmt = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${s.toFixed(1)}s`);

export class StageRunner {
  /** Every stage this invocation asked for, in order (cached ones included), once per directory. */
  readonly outcomes: StageOutcome<unknown>[] = [];

  /**
   * `root`: the run directory (stages live in root/stages/<name>-<hash>/). `session`: a label stored
   * with each result (default: DIFFWORLD_SESSION from the environment), e.g. "h200 lease 2".
   */
  constructor(
    readonly root: string,
    private readonly log: (line: string) => void = () => {},
    private readonly session: string | null = process.env['DIFFWORLD_SESSION'] ?? null,
  ) {}

  /** Runs `run(dir)` unless the stage's result.json exists; writes it atomically when `run` returns. */
  async run<T>(name: string, inputs: unknown, run: (dir: string) => Promise<T>): Promise<StageOutcome<T>> {
    const hash = stageHash(name, inputs);
    const dir = join(this.root, 'stages', `${name}-${hash}`);
    const file = join(dir, 'result.json');
    let outcome: StageOutcome<T>;
    if (existsSync(file)) {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredResult<T>;
      this.log(`[${name}] cached (${hash}), skipped`);
      outcome = { name, dir, hash, result: stored.result, cached: true, seconds: stored.seconds, host: stored.host ?? 'unknown', session: stored.session ?? null, finishedAt: stored.finishedAt };
    } else {
      mkdirSync(dir, { recursive: true });
      this.log(`[${name}] start (${hash})`);
      const t0 = performance.now();
      const result = await run(dir);
      const seconds = (performance.now() - t0) / 1000;
      const stored: StoredResult<T> = { stage: name, hash, finishedAt: new Date().toISOString(), seconds, host: hostname(), session: this.session, result };
      writeFileAtomic(file, `${JSON.stringify(stored, null, 2)}\n`);
      this.log(`[${name}] done in ${fmt(seconds)} · rss ${(process.memoryUsage.rss() / 1e9).toFixed(2)} GB`);
      outcome = { name, dir, hash, result, cached: false, seconds, host: stored.host!, session: this.session, finishedAt: stored.finishedAt };
    }
    if (!this.outcomes.some((o) => o.dir === dir)) this.outcomes.push(outcome as StageOutcome<unknown>);
    return outcome;
  }

  /** Seconds per stage asked for in this invocation (stored seconds for cached ones). */
  timings(): Record<string, number> {
    return Object.fromEntries(this.outcomes.map((o) => [o.name, o.seconds]));
  }
}
