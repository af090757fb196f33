// The command table: every `diffworld` command, in help order.
import type { Command } from '../command.js';

export const COMMANDS: readonly Command[] = [];
