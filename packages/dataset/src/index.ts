// Public API of @diffworld/dataset.
export { DatasetError, renderIssue, type DatasetIssue, type DatasetIssueCode, type Result } from './errors.js';
export { ROLES, MAX_META_DEPTH, assertWritable, validateRow, formatRowIssues, type Role, type ChatMessage, type ChatRow, type RowIssue } from './rows.js';
export * from './pyjson/index.js';
export { AtomicFile, removeStaleTemps, writeFileAtomic } from './io/atomic.js';
export { readLines, type Line } from './io/lines.js';
export type { Policy, ReadOptions, ReadReport, RowSource } from './corpus/source.js';
export { readJsonlRows, readJsonlValues, createJsonlWriter, rowToJson, type RowWriter } from './corpus/jsonl.js';
export {
  readParquetRows,
  createParquetWriter,
  parquetInfo,
  corpusSchema,
  type ParquetCodec,
  type ParquetInfo,
  type ParquetWriteOptions,
} from './corpus/parquet.js';
export { DEFAULT_DECODE_BUDGET, type DecodeBudget } from './corpus/parquet-sandbox.js';
export { readRows, createRowWriter, formatOf, type CorpusFormat } from './corpus/files.js';
export { approxTokenCount, type TokenCounter } from './tokens.js';
export { Rng, hashSeed } from './rng.js';
export { workerExecArgv, workerEntry, SOURCE_CONDITION } from './workers/exec-argv.js';
export {
  SECTIONS,
  PREDICTION_TARGET_PREFIX,
  buildGroundingPrompt,
  parseGroundingPrompt,
  type Grounding,
  type GroundingIssue,
  type SectionKey,
} from './grounding/sections.js';
export {
  worldModelUserTurn,
  parseWorldModelUserTurn,
  encodeAction,
  decodeAction,
  isActionBoundary,
  trajectoryToWorldModelRows,
  type ActionEncoding,
  type ParsedUserTurn,
  type Trajectory,
} from './grounding/worldmodel.js';
export {
  WORLD_MODEL_LAYOUTS,
  actionOfTurn,
  observationOfTurn,
  episodeView,
  episodeMessages,
  worldModelPromptMessages,
  worldModelRowMessages,
  parseEpisodeRow,
  episodeStepRows,
  worldModelLayoutOf,
  fitEpisodeWindow,
  type WorldModelLayout,
  type WorldModelPromptRequest,
  type LayoutOptions,
  type EpisodeStep,
  type EpisodeView,
} from './grounding/layout.js';
export {
  diversifyRow,
  truncateMiddle,
  truncationMarker,
  type DiversifyOptions,
  type DiversifyCounts,
  type MiddleTruncation,
} from './shape/diversify.js';
export { SPLIT_NAMES, contentHash, parseRatios, Splitter, Deduplicator, type SplitSpec } from './shape/split.js';
export { StatsCollector, percentiles, type CorpusStats, type Percentiles } from './shape/stats.js';
export { ShardWriter, readShard, SHARD_SCHEMA, type TokenizedExample, type ShardRow } from './shards/arrow.js';
