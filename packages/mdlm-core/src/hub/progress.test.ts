import { describe, expect, it } from 'vitest';
import { hubProgressLogger } from './progress.js';

describe('hubProgressLogger', () => {
  it('writes a start line for large or resumed files, a line per interval and one at the end', () => {
    const lines: string[] = [];
    let t = 0;
    const log = hubProgressLogger(
      (l) => lines.push(l),
      2000,
      () => t,
    );
    const big = 100 * 2 ** 20;
    const p = { repo: 'org/m', file: 'model.safetensors', total: big, resumedFrom: 0, done: false };
    log({ ...p, received: 0 });
    t = 1000;
    log({ ...p, received: 10 * 2 ** 20 }); // within the interval: silent
    t = 2500;
    log({ ...p, received: 50 * 2 ** 20 });
    t = 5000;
    log({ ...p, received: big, done: true });
    log({ repo: 'org/m', file: 'config.json', total: 700, received: 700, resumedFrom: 0, done: true });
    expect(lines).toEqual([
      'downloading org/m model.safetensors (100.0 MiB)',
      'downloading org/m model.safetensors: 50.0 MiB of 100.0 MiB (50%)',
      'downloaded org/m model.safetensors: 100.0 MiB in 5.0 s (20.0 MiB/s)',
      'downloaded org/m config.json: 0.7 KiB in 0.0 s (683.6 KiB/s)',
    ]);
  });
});
