// The embedding gradient must not depend on ONNX Runtime's thread pool (issue 31). It used to be a
// ScatterND(add), which the CPU provider splits across intra-op threads with no order between
// them (and no lock on repeated rows), so two same-seed training runs drifted apart from step 2–5.
import { describe, expect, it } from 'vitest';
import { createSession } from '../../runtime/session.js';
import { hostTensor } from '../../runtime/tensor.js';
import { grad } from '../autodiff.js';
import { emitOnnx } from '../emit.js';
import * as G from '../index.js';
import { Graph } from '../tensor.js';
import { randn, rng } from '../../testing/index.js';

describe('Gather gradient (embedding lookups)', () => {
  it('sums repeated rows in index order, bit for bit, with two intra-op threads', async () => {
    // 65,536 lookups into 8 rows: every row is hit ~8,000 times from all over the batch. At this size
    // the old ScatterND disagreed with the in-order sum in 18 of 20 runs on the 2-core machine.
    const [V, D, N] = [8, 128, 65_536];
    const next = rng(31);
    const ids = BigInt64Array.from({ length: N }, () => BigInt(Math.floor(next() * V)));
    const dy = Float32Array.from(randn(next, N * D));
    const g = new Graph();
    const table = g.input('table', 'float32', [V, D]);
    const idx = g.input('idx', 'int64', [N]);
    const cot = g.input('dy', 'float32', [N, D]);
    const [dTable] = grad(G.reduceSum(G.mul(G.gather(table, idx, 0), cot)), [table]);
    g.output('dTable', dTable!);
    // What a single thread adding the rows of dy in index order computes, rounded as float32.
    const want = new Float32Array(V * D);
    for (let i = 0; i < N; i++) {
      const row = Number(ids[i]!);
      for (let d = 0; d < D; d++) want[row * D + d] = Math.fround(want[row * D + d]! + dy[i * D + d]!);
    }
    const session = await createSession(emitOnnx(g).bytes, { provider: 'cpu', intraOpThreads: 2 });
    const feeds = { table: hostTensor('float32', new Float32Array(V * D), [V, D]), idx: hostTensor('int64', ids, [N]), dy: hostTensor('float32', dy, [N, D]) };
    for (let run = 0; run < 3; run++) {
      const got = (await session.run(feeds))['dTable']!;
      if (got.kind !== 'host') throw new Error('expected a host output');
      const diff = (got.data as Float32Array).findIndex((v, e) => v !== want[e]);
      expect(diff, `run ${run}: element ${diff} is ${(got.data as Float32Array)[diff]}, the in-order sum ${want[diff]}`).toBe(-1);
    }
  }, 60_000);
});
