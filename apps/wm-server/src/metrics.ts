// GET /metrics: Prometheus text exposition through prom-client, one registry per server so that
// several servers in one process (tests) never share counters.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BatchEvent } from './batcher.js';

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'status'>;
  private readonly latency: Histogram<'route'>;
  private readonly batchSize: Histogram;
  private readonly batchSeconds: Histogram;
  private readonly tokens: Counter<'kind'>;
  private readonly tokensPerSecond: Gauge;
  private readonly rejected: Counter<'reason'>;
  private readonly batchErrors: Counter;

  /** `rowsPerStep`: continuous scheduling's mean rows per forward pass (its wm_batch_* count one sequence per "call"). */
  constructor(state: { queued(): number; generating(): number; rowsPerStep?(): number }, opts: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'wm_requests_total', help: 'HTTP requests answered, by route and status code', labelNames: ['route', 'status'], registers });
    this.latency = new Histogram({
      name: 'wm_request_duration_seconds',
      help: 'Time from request start to the last byte of the answer',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.batchSize = new Histogram({ name: 'wm_batch_size', help: 'Sequences per backend call', buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256], registers });
    this.batchSeconds = new Histogram({
      name: 'wm_batch_duration_seconds',
      help: 'Wall time of one backend call',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.tokens = new Counter({ name: 'wm_tokens_total', help: 'Tokens processed, by kind (prompt | completion)', labelNames: ['kind'], registers });
    this.tokensPerSecond = new Gauge({ name: 'wm_completion_tokens_per_second', help: 'Completion tokens per second of the last backend call', registers });
    this.rejected = new Counter({ name: 'wm_rejected_total', help: 'Requests turned away before generation, by reason', labelNames: ['reason'], registers });
    this.batchErrors = new Counter({ name: 'wm_batch_errors_total', help: 'Backend calls that threw', registers });
    new Gauge({
      name: 'wm_queue_depth',
      help: 'Sequences waiting for a batch',
      registers,
      collect() {
        this.set(state.queued());
      },
    });
    new Gauge({
      name: 'wm_generating_sequences',
      help: 'Sequences inside running backend calls',
      registers,
      collect() {
        this.set(state.generating());
      },
    });
    const rowsPerStep = state.rowsPerStep;
    if (rowsPerStep)
      new Gauge({
        name: 'wm_decode_rows_per_step',
        help: 'Continuous batching: mean rows per forward pass since start',
        registers,
        collect() {
          this.set(rowsPerStep());
        },
      });
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'wm_' });
  }

  request(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.latency.observe({ route }, seconds);
  }

  reject(reason: 'queue_full' | 'draining' | 'timeout' | 'unauthorized'): void {
    this.rejected.inc({ reason });
  }

  batch(e: BatchEvent): void {
    this.batchSize.observe(e.size);
    this.batchSeconds.observe(e.ms / 1000);
    if (e.error !== undefined) {
      this.batchErrors.inc();
      return;
    }
    this.tokens.inc({ kind: 'prompt' }, e.promptTokens);
    this.tokens.inc({ kind: 'completion' }, e.completionTokens);
    if (e.ms > 0) this.tokensPerSecond.set((e.completionTokens * 1000) / e.ms);
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
