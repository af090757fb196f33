// Benchmarks printed as figures (no pass/fail): BPE training time for a 4,096-token vocabulary on
// ~50 MB of text, and encode throughput single-threaded vs the worker pool.
// Run: npx nx run tokenizer:bench   (BENCH_MB=… changes the corpus size)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitLinesKeepEnds } from '../corpus.js';
import { encodeTextsPacked } from '../pool/packed.js';
import { TokenizerPool } from '../pool/pool.js';
import { syntheticText } from '../synthetic.js';
import { Tokenizer } from '../tokenizer.js';
import { trainTokenizer } from '../train/train.js';
import { writeTokenizerJson } from '../train/write.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const MB = Number(process.env['BENCH_MB'] ?? 50);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The repo's own Markdown docs (real prose) — mixed into the synthetic text. */
function repoDocs(): string {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'dist') continue;
      const p = join(dir, e.name);
      if (e.isDirectory() && depth < 4) walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.md') && statSync(p).size < 1e6) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(ROOT, 0);
  return out.join('\n');
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

async function main(): Promise<void> {
  const docs = repoDocs();
  const target = MB * 1e6;
  // Docs are repeated a little (real corpora repeat boilerplate); the rest is synthetic.
  const synthetic = syntheticText(Math.max(0, target - docs.length * 5), 2026);
  const text = `${docs}\n`.repeat(5) + synthetic;
  const lines = splitLinesKeepEnds(text);
  console.log(`corpus: ${(bytes(text) / 1e6).toFixed(1)} MB, ${lines.length} lines (${(bytes(docs) / 1e3).toFixed(0)} kB repo docs ×5 + synthetic)`);

  const { json, stats } = await trainTokenizer(lines, { vocabSize: 4096 });
  console.log(
    `train BPE vocab 4096: ${(stats.countSeconds + stats.mergeSeconds).toFixed(2)} s total ` +
      `(word counting ${stats.countSeconds.toFixed(2)} s over ${stats.uniqueWords} unique words, ${stats.merges} merges ${stats.mergeSeconds.toFixed(2)} s)`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'tok-bench-'));
  const path = join(dir, 'tokenizer.json');
  writeTokenizerJson(path, json);
  const tok = Tokenizer.load(path);

  // Encode a 10 MB slice of documents (rows of ~4 kB, like chat rows).
  const slice = text.slice(0, Math.min(text.length, 10e6));
  const rows: string[] = [];
  for (let i = 0; i < slice.length; i += 4000) rows.push(slice.slice(i, i + 4000));
  const sliceMB = bytes(slice) / 1e6;

  let t = performance.now();
  const single = encodeTextsPacked(tok, rows);
  const singleS = (performance.now() - t) / 1000;
  console.log(`encode single-threaded: ${(sliceMB / singleS).toFixed(2)} MB/s (${sliceMB.toFixed(1)} MB, ${single.ids.length} tokens, ${(bytes(slice) / single.ids.length).toFixed(2)} bytes/token)`);

  for (const threads of [1, availableParallelism()]) {
    const pool = new TokenizerPool({ tokenizerPath: path, threads, shardRows: 64 });
    await pool.encodeTexts(rows.slice(0, threads * 64)); // start the workers and load the tokenizer
    t = performance.now();
    const pooled = await pool.encodeTexts(rows);
    const s = (performance.now() - t) / 1000;
    await pool.close();
    if (pooled.ids.length !== single.ids.length) throw new Error('pool and single-threaded encodings differ');
    console.log(`encode pool ×${threads}: ${(sliceMB / s).toFixed(2)} MB/s (speed-up ${(singleS / s).toFixed(2)}×)`);
  }
}

await main();
