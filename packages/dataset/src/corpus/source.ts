// What every row reader shares: the malformed-input policy and the report of what was read.
import { DatasetError, type DatasetIssueCode } from '../errors.js';
import type { ChatRow } from '../rows.js';
import type { DecodeBudget } from './parquet-sandbox.js';

/** strict: the first bad row stops the read (exit 2 in the CLI); skip: count it, report it, go on. */
export type Policy = 'strict' | 'skip';

export interface ReadOptions {
  policy?: Policy;
  /** Called with `file:line: what is wrong` for every skipped row (skip policy). */
  onIssue?: (message: string) => void;
  /** How many issue messages the report keeps (all are counted). Default 100. */
  keepIssues?: number;
  /** Parquet only: time and memory budget for decoding one row group (see parquet-sandbox.ts). */
  budget?: Partial<DecodeBudget>;
}

export interface ReadReport {
  file: string;
  /** Rows handed out. */
  rows: number;
  /** Malformed rows left out under the skip policy — never dropped without being counted here. */
  skipped: number;
  /** Empty lines of a JSONL file (not rows, so not errors). */
  blank: number;
  /** The first `keepIssues` messages, `file:line: what is wrong`. */
  issues: string[];
  /** Rows the file says it holds (the Parquet footer; JSONL declares none): rows + skipped = declared. */
  declared?: number;
}

export interface RowSource extends AsyncIterable<ChatRow> {
  readonly report: ReadReport;
}

/** Applies the policy to one bad row: throws under strict, records under skip. */
export class IssueSink {
  readonly report: ReadReport;
  private readonly policy: Policy;
  private readonly keep: number;
  constructor(
    file: string,
    private readonly options: ReadOptions,
  ) {
    this.report = { file, rows: 0, skipped: 0, blank: 0, issues: [] };
    this.policy = options.policy ?? 'strict';
    this.keep = options.keepIssues ?? 100;
  }

  bad(code: DatasetIssueCode, where: string, message: string): void {
    if (this.policy === 'strict') {
      throw new DatasetError({ code, where, message, hint: 'fix the row, or read with policy "skip" (--skip-bad) to count and skip bad rows' });
    }
    const text = `${where}: ${message}`;
    this.report.skipped++;
    if (this.report.issues.length < this.keep) this.report.issues.push(text);
    this.options.onIssue?.(text);
  }
}
