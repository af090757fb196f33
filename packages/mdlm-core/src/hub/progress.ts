// Download progress as log lines (stderr in the CLI): one when a file starts (or resumes), one every
// few seconds while it runs, one when it is done — lines rather than a redrawn bar, so logs stay readable.
import type { DownloadProgress } from './download.js';

const mib = (n: number) => (n < 2 ** 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 2 ** 20).toFixed(1)} MiB`);
const SMALL = 2 ** 20;

/** An onProgress for resolveModelDir that writes lines through `log` at most every `intervalMs`. */
export function hubProgressLogger(log: (line: string) => void, intervalMs = 2000, now: () => number = Date.now): (p: DownloadProgress) => void {
  let current = '';
  let started = 0;
  let last = 0;
  return (p) => {
    const key = `${p.repo}\0${p.file}`;
    const t = now();
    if (key !== current) {
      current = key;
      started = t;
      last = t;
      // Small files (config, tokenizer) get only their 'downloaded' line.
      if (p.total >= SMALL || p.resumedFrom > 0) log(`downloading ${p.repo} ${p.file} (${mib(p.total)})${p.resumedFrom > 0 ? `, resuming at ${mib(p.resumedFrom)}` : ''}`);
    }
    if (p.done) {
      const s = Math.max((t - started) / 1000, 1e-3);
      log(`downloaded ${p.repo} ${p.file}: ${mib(p.total)} in ${s.toFixed(1)} s (${mib((p.received - p.resumedFrom) / s)}/s)`);
      current = '';
    } else if (t - last >= intervalMs) {
      last = t;
      log(`downloading ${p.repo} ${p.file}: ${mib(p.received)} of ${mib(p.total)} (${Math.floor((100 * p.received) / Math.max(p.total, 1))}%)`);
    }
  };
}
