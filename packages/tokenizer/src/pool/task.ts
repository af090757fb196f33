// What one pool worker does with one shard. Tokenizers are loaded once per worker and path.
import type { ChatMessage, ChatTemplateOptions } from '../chat.js';
import { Tokenizer } from '../tokenizer.js';
import { encodeChatsPacked, encodeTextsPacked, type PackedIds } from './packed.js';

export type ShardTask =
  | { kind: 'texts'; tokenizerPath: string; texts: string[]; addSpecialTokens: boolean }
  | { kind: 'chats'; tokenizerPath: string; chats: ChatMessage[][]; chat: ChatTemplateOptions };

const loaded = new Map<string, Tokenizer>();

export function runShardTask(task: ShardTask): PackedIds {
  let tok = loaded.get(task.tokenizerPath);
  if (!tok) loaded.set(task.tokenizerPath, (tok = Tokenizer.load(task.tokenizerPath)));
  return task.kind === 'texts' ? encodeTextsPacked(tok, task.texts, task.addSpecialTokens) : encodeChatsPacked(tok, task.chats, task.chat);
}

export default runShardTask;
