// Public API of @diffworld/tokenizer.
export { Tokenizer, type Encoding, type EncodeOptions, type DecodeOptions } from './tokenizer.js';
export { type BatchOptions, type BatchEncoding, type Side, truncateAndPad } from './batch.js';
export { TokenizerError, renderIssue, type TokenizerIssue, type TokenizerIssueCode, type Result } from './errors.js';
export { validateTokenizerJson, type TokenizerJson, type AddedTokenJson } from './validate.js';
export { type Offset } from './offsets.js';
export { SPECIAL_TOKENS, DEFAULT_SPECIAL_TOKENS, type SpecialTokenName } from './special.js';
export { BYTE_LEVEL_ALPHABET, toByteLevel, fromByteLevel } from './bytelevel.js';
export { QWEN_SPLIT_PATTERN, GPT2_SPLIT_PATTERN, compileSplitPattern } from './pretokenize.js';
export { renderChat, encodeChat, chatTrainingTexts, type ChatMessage, type ChatTemplateOptions, type ChatEncoding } from './chat.js';
export { readLinesKeepEnds, splitLinesKeepEnds } from './corpus.js';
export { writeFileAtomic } from '@diffworld/dataset';
export { WordCounter } from './train/count.js';
export { trainBpe, type BpeTrainOptions, type TrainedBpe } from './train/bpe.js';
export { buildTokenizerJson, writeTokenizerJson } from './train/write.js';
export { trainTokenizer, trainTokenizerFromFiles, isChatFile, type TrainTokenizerOptions, type TrainStats, type TrainResult } from './train/train.js';
export { TokenizerPool, type PoolOptions } from './pool/pool.js';
export { encodeTextsPacked, encodeChatsPacked, unpackRow, concatPacked, type PackedIds } from './pool/packed.js';
export { syntheticText, seededUniform } from './synthetic.js';
