// A training run in its own process, for the kill-and-resume test: argv = run options as JSON.
// Prints one line per step so the parent knows when to kill it.
import { readFileSync } from 'node:fs';
import { Tokenizer } from '@diffworld/tokenizer';
import { resolveTrainConfig } from '../train/config.js';
import { trainWorldModel } from '../train/trainer.js';

const opts = JSON.parse(process.argv[2]!) as { config: object; data: string[]; tokenizer: string; out: string; resume: boolean };
const tokenizerJson = readFileSync(opts.tokenizer, 'utf8');
await trainWorldModel({
  config: resolveTrainConfig(opts.config),
  data: opts.data,
  tokenizer: Tokenizer.fromJson(JSON.parse(tokenizerJson)),
  tokenizerJson,
  out: opts.out,
  resume: opts.resume,
  provider: 'cpu',
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write('done\n');
