// The command table: every `diffworld` command, in help order.
import type { Command } from '../command.js';
import { DATA_COMMANDS } from './data.js';
import { EVAL_COMMANDS } from './eval.js';
import { TOKENIZER_COMMANDS } from './tokenizer.js';

export const COMMANDS: readonly Command[] = [...DATA_COMMANDS, ...EVAL_COMMANDS, ...TOKENIZER_COMMANDS];
