// Picks the reader or writer of a corpus file by its extension.
import { extname } from 'node:path';
import { DatasetError } from '../errors.js';
import { createJsonlWriter, readJsonlRows, type RowWriter } from './jsonl.js';
import { createParquetWriter, readParquetRows, type ParquetWriteOptions } from './parquet.js';
import type { ReadOptions, RowSource } from './source.js';

export type CorpusFormat = 'jsonl' | 'parquet';

const BY_EXTENSION: Readonly<Record<string, CorpusFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
};

/** `train.jsonl` → jsonl, `eval.parquet` → parquet; anything else is a bad-input error. */
export function formatOf(path: string): CorpusFormat {
  const format = BY_EXTENSION[extname(path).toLowerCase()];
  if (!format) {
    throw new DatasetError({
      code: 'bad_format',
      where: path,
      message: `unknown corpus file extension "${extname(path)}"`,
      hint: 'use .jsonl (or .ndjson) or .parquet',
    });
  }
  return format;
}

/** Streams the chat rows of a .jsonl or .parquet file. */
export function readRows(path: string, options: ReadOptions = {}): RowSource {
  return formatOf(path) === 'jsonl' ? readJsonlRows(path, options) : readParquetRows(path, options);
}

/** Opens an atomic writer for a .jsonl or .parquet file (Parquet options apply to .parquet only). */
export function createRowWriter(path: string, options: ParquetWriteOptions = {}): RowWriter {
  return formatOf(path) === 'jsonl' ? createJsonlWriter(path) : createParquetWriter(path, options);
}
