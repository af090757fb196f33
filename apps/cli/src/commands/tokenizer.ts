// `diffworld tokenizer train|encode` and `diffworld data tokenize` (issue 4).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRows, ShardWriter } from '@diffworld/dataset';
import { TokenizerPool, Tokenizer, trainTokenizerFromFiles, writeTokenizerJson, type ChatMessage, type ChatTemplateOptions } from '@diffworld/tokenizer';
import { EXIT, UsageError, intOpt, positiveIntOpt, positional, requiredString, stringOpt, type Command, type ParsedArgs } from '../command.js';

function chatOptions(args: ParsedArgs): ChatTemplateOptions {
  const lossOn = stringOpt(args, 'loss-on') ?? 'assistant';
  if (lossOn !== 'assistant' && lossOn !== 'last') throw new UsageError(`--loss-on must be "assistant" or "last", got "${lossOn}"`);
  const style = stringOpt(args, 'style') ?? 'chatml';
  if (style !== 'chatml' && style !== 'qwen') throw new UsageError(`--style must be "chatml" or "qwen", got "${style}"`);
  return { lossOn, style };
}

const train: Command = {
  path: ['tokenizer', 'train'],
  maxPositionals: 0,
  summary: 'train a byte-level BPE tokenizer.json on chat rows or text files',
  help: [
    'Usage: diffworld tokenizer train --data FILE [--data FILE …] --vocab-size N --out tokenizer.json',
    '',
    'Trains a byte-level BPE (Qwen2-style split regex, 256 byte symbols, merges by pair frequency,',
    'ties broken by the smaller ids, like the Python `tokenizers` trainer). Special tokens get ids 0-4:',
    '<|endoftext|> <|im_start|> <|im_end|> <|mask|> <|pad|>. .jsonl/.ndjson/.parquet files are chat rows',
    '(their message texts are trained on); any other file is plain text, one training unit per line.',
    '',
    'Options:',
    '  --data FILE          corpus file (repeatable)',
    '  --vocab-size N       final vocabulary size, special tokens included',
    '  --out PATH           where to write tokenizer.json (atomically)',
    '  --min-frequency N    never merge pairs seen fewer times (default 0)',
    '',
    'Example:',
    '  diffworld tokenizer train --data test-data/tokenizer/corpus.txt --vocab-size 1024 --out /tmp/tok.json',
  ].join('\n'),
  options: {
    data: { type: 'string', multiple: true },
    'vocab-size': { type: 'string' },
    out: { type: 'string' },
    'min-frequency': { type: 'string' },
  },
  async run(args, io) {
    const data = (args.values['data'] as string[] | undefined) ?? [];
    if (data.length === 0) throw new UsageError('--data is required (one or more corpus files)');
    if (stringOpt(args, 'vocab-size') === undefined) throw new UsageError('--vocab-size is required');
    const vocabSize = positiveIntOpt(args, 'vocab-size', 0);
    const out = requiredString(args, 'out');
    const minFrequency = intOpt(args, 'min-frequency', 0);
    const { json, stats } = await trainTokenizerFromFiles(data, {
      vocabSize,
      minFrequency,
      onProgress: (p) => io.err(`train: ${p.vocab}/${p.target} tokens`),
      progressEvery: 1000,
    });
    writeTokenizerJson(out, json);
    io.out(
      `${out}: vocab ${stats.vocabSize} (${stats.merges} merges) from ${stats.chars} chars, ${stats.uniqueWords} unique words; ` +
        `counting ${stats.countSeconds.toFixed(2)} s, merging ${stats.mergeSeconds.toFixed(2)} s`,
    );
    return EXIT.ok;
  },
};

const encode: Command = {
  path: ['tokenizer', 'encode'],
  maxPositionals: 0,
  summary: 'print the ids and pieces of a text',
  help: [
    'Usage: diffworld tokenizer encode --tokenizer tokenizer.json --text TEXT [--no-special]',
    '',
    'Prints three JSON lines: the ids, the pieces (each token decoded on its own; a piece that holds',
    'part of a multi-byte character shows U+FFFD), and the [start, end) UTF-16 offsets.',
    '',
    'Options:',
    '  --tokenizer PATH   a Hugging Face tokenizer.json',
    '  --text TEXT        the text to encode',
    '  --no-special       do not add the post-processor special tokens (BOS/EOS templates)',
    '',
    'Example:',
    '  diffworld tokenizer encode --tokenizer test-data/tokenizer/ours.tokenizer.json --text "<|im_start|>user\\nhi 🙂"',
  ].join('\n'),
  options: {
    tokenizer: { type: 'string' },
    text: { type: 'string' },
    'no-special': { type: 'boolean' },
  },
  async run(args, io) {
    const tok = Tokenizer.load(requiredString(args, 'tokenizer'));
    const text = requiredString(args, 'text').replace(/\\n/g, '\n');
    const e = tok.encode(text, { addSpecialTokens: args.values['no-special'] !== true });
    io.out(`ids     ${JSON.stringify(e.ids)}`);
    io.out(`pieces  ${JSON.stringify(e.ids.map((id) => tok.decode([id])))}`);
    io.out(`offsets ${JSON.stringify(e.offsets)}`);
    return EXIT.ok;
  },
};

const tokenize: Command = {
  path: ['data', 'tokenize'],
  maxPositionals: 1,
  summary: 'tokenize chat rows into Arrow IPC shards (input_ids, loss_mask) on a worker pool',
  help: [
    'Usage: diffworld data tokenize IN --tokenizer tokenizer.json --out DIR [options]',
    '',
    'Renders every chat row of IN (.jsonl or .parquet) with the ChatML template, tokenizes it on a',
    'pool of worker threads and writes DIR/shard-00000.arrow, … (the @diffworld/dataset shard format).',
    'loss_mask is 1 on assistant content tokens and their <|im_end|>.',
    '',
    'Options:',
    '  --tokenizer PATH     a Hugging Face tokenizer.json',
    '  --out DIR            output folder for the shards',
    '  --shard-rows N       rows per shard file (default 10000)',
    '  --threads N          worker threads (default: available cores)',
    '  --loss-on WHICH      "assistant" (every assistant message, default) or "last" (the final message)',
    '  --style STYLE        "chatml" (default) or "qwen" (tool messages as <tool_response> user turns)',
    '',
    'Example:',
    '  diffworld data tokenize test-data/dataset/sample.jsonl --tokenizer test-data/tokenizer/ours.tokenizer.json --out /tmp/shards',
  ].join('\n'),
  options: {
    tokenizer: { type: 'string' },
    out: { type: 'string' },
    'shard-rows': { type: 'string' },
    threads: { type: 'string' },
    'loss-on': { type: 'string' },
    style: { type: 'string' },
  },
  async run(args, io) {
    const input = positional(args, 0, 'IN');
    const tokenizerPath = requiredString(args, 'tokenizer');
    const outDir = requiredString(args, 'out');
    const shardRows = positiveIntOpt(args, 'shard-rows', 10_000);
    const chat = chatOptions(args);
    Tokenizer.load(tokenizerPath); // fail here, with the field named, rather than in every worker
    const threadsOpt = stringOpt(args, 'threads');
    const pool = new TokenizerPool({ tokenizerPath, ...(threadsOpt ? { threads: positiveIntOpt(args, 'threads', 1) } : {}), shardRows: 256 });
    mkdirSync(outDir, { recursive: true });
    let shard = 0;
    let writer: ShardWriter | undefined;
    let rows = 0;
    let tokens = 0;
    let trained = 0;
    const flush = async (batch: ChatMessage[][]) => {
      const packed = await pool.encodeChats(batch, chat);
      for (let i = 0; i < batch.length; i++) {
        if (!writer || writer.rows >= shardRows) {
          await writer?.close();
          writer = new ShardWriter(join(outDir, `shard-${String(shard++).padStart(5, '0')}.arrow`));
        }
        const a = packed.rowStarts[i]!;
        const b = packed.rowStarts[i + 1]!;
        await writer.write({ inputIds: packed.ids.subarray(a, b), lossMask: packed.lossMask!.subarray(a, b) });
      }
      rows += batch.length;
      tokens += packed.ids.length;
      for (const m of packed.lossMask!) trained += m;
      io.err(`tokenize: ${rows} rows, ${tokens} tokens`);
    };
    try {
      let batch: ChatMessage[][] = [];
      for await (const row of readRows(input)) {
        batch.push(row.messages);
        if (batch.length >= 4096) {
          await flush(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await flush(batch);
      // An empty input still gives one (empty) shard with the schema.
      writer ??= new ShardWriter(join(outDir, `shard-${String(shard++).padStart(5, '0')}.arrow`));
      await writer.close();
    } finally {
      await pool.close();
    }
    io.out(`${outDir}: ${rows} rows in ${shard} shard(s), ${tokens} tokens, ${trained} with loss`);
    return EXIT.ok;
  },
};

export const TOKENIZER_COMMANDS: readonly Command[] = [train, encode, tokenize];
