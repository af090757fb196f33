// Paths of the committed fixtures, shared by this package's tests and benchmarks.
import { fileURLToPath } from 'node:url';

export const TEST_DATA = fileURLToPath(new URL('../../../test-data/', import.meta.url));
export const CORPUS_PATH = `${TEST_DATA}tokenizer/corpus.txt`;
export const HELDOUT_PATH = `${TEST_DATA}tokenizer/heldout.json`;
export const OURS_PATH = `${TEST_DATA}tokenizer/ours.tokenizer.json`;
export const GOLDEN_DIR = `${TEST_DATA}golden/tokenizer_train/`;
/** Vocabulary size of the golden tokenizers (ours and Python's). */
export const GOLDEN_VOCAB_SIZE = 1024;
