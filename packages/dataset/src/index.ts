// Public API of @diffworld/dataset.
export { DatasetError, renderIssue, type DatasetIssue, type DatasetIssueCode, type Result } from './errors.js';
export { ROLES, validateRow, formatRowIssues, type Role, type ChatMessage, type ChatRow, type RowIssue } from './rows.js';
export * from './pyjson/index.js';
export { AtomicFile, writeFileAtomic } from './io/atomic.js';
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
export { readRows, createRowWriter, formatOf, type CorpusFormat } from './corpus/files.js';
