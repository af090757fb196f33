// The command table: every `diffworld` command, in help order.
import type { Command } from '../command.js';
import { DATA_COMMANDS } from './data.js';
import { DOCTOR_COMMANDS } from './doctor.js';
import { ENV_COMMANDS } from './env.js';
import { EVAL_COMMANDS } from './eval.js';
import { EVAL_AGENT_COMMANDS } from './eval-agent.js';
import { TOKENIZER_COMMANDS } from './tokenizer.js';

export const COMMANDS: readonly Command[] = [...DATA_COMMANDS, ...ENV_COMMANDS, ...EVAL_COMMANDS, ...EVAL_AGENT_COMMANDS, ...DOCTOR_COMMANDS, ...TOKENIZER_COMMANDS];
