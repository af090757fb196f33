// Corpus statistics in one streaming pass: row counts per dataset and role, and length percentiles.
import type { ChatRow } from '../rows.js';
import { approxTokenCount, type TokenCounter } from '../tokens.js';

export interface Percentiles {
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface CorpusStats {
  rows: number;
  datasets: Record<string, number>;
  roles: Record<string, number>;
  messagesPerRow: Percentiles;
  charsPerRow: Percentiles;
  tokensPerRow: Percentiles;
}

/** Nearest-rank percentiles of a set of values (empty → all zeros). */
export function percentiles(values: Float64Array): Percentiles {
  if (values.length === 0) return { min: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const s = Float64Array.from(values).sort();
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  let sum = 0;
  for (const v of s) sum += v;
  return { min: s[0]!, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: s[s.length - 1]!, mean: sum / s.length };
}

/** A growable Float64Array: 8 bytes per row, so millions of rows stay small. */
class Values {
  private buf = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  view(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

export class StatsCollector {
  private rows = 0;
  private readonly datasets: Record<string, number> = {};
  private readonly roles: Record<string, number> = {};
  private readonly messages = new Values();
  private readonly chars = new Values();
  private readonly tokens = new Values();

  constructor(private readonly countTokens: TokenCounter = approxTokenCount) {}

  add(row: ChatRow): void {
    this.rows++;
    const ds = row.dataset ?? '(none)';
    this.datasets[ds] = (this.datasets[ds] ?? 0) + 1;
    let chars = 0;
    let tokens = 0;
    for (const m of row.messages) {
      this.roles[m.role] = (this.roles[m.role] ?? 0) + 1;
      chars += m.content.length;
      tokens += this.countTokens(m.content);
    }
    this.messages.push(row.messages.length);
    this.chars.push(chars);
    this.tokens.push(tokens);
  }

  result(): CorpusStats {
    return {
      rows: this.rows,
      datasets: this.datasets,
      roles: this.roles,
      messagesPerRow: percentiles(this.messages.view()),
      charsPerRow: percentiles(this.chars.view()),
      tokensPerRow: percentiles(this.tokens.view()),
    };
  }
}
