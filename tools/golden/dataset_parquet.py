#!/usr/bin/env python3
"""Parquet interoperability goldens for @diffworld/dataset (needs pyarrow).

Inputs (committed):  test-data/golden/dataset_parquet/rows.jsonl          the rows
                     test-data/golden/dataset_parquet/ours_{snappy,none}.parquet
                                                                         written by our writer
Outputs:
  (a) pyarrow_{none,snappy,gzip,zstd}.parquet  rows.jsonl written by pyarrow in the Hugging Face
      corpus layout (dataset: string, messages: list<struct<role: string, content: string>>),
      3 rows per row group — our reader must read each back as rows.jsonl;
  (b) pyarrow_read_ours_{snappy,none}.json     our files as pyarrow reads them:
      {"schema": str(schema), "num_row_groups": n, "rows": table.to_pylist()}.

Run from the repository root:  python3 tools/golden/dataset_parquet.py
"""
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq

DIR = os.path.join(os.path.dirname(__file__), '..', '..', 'test-data', 'golden', 'dataset_parquet')
SCHEMA = pa.schema([
    ('dataset', pa.string()),
    ('messages', pa.list_(pa.struct([('role', pa.string()), ('content', pa.string())]))),
])


def load_rows():
    with open(os.path.join(DIR, 'rows.jsonl'), encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def write_pyarrow(rows):
    table = pa.Table.from_pylist(
        [{'dataset': r.get('dataset'), 'messages': r['messages']} for r in rows], schema=SCHEMA)
    for codec in ['none', 'snappy', 'gzip', 'zstd']:
        path = os.path.join(DIR, f'pyarrow_{codec}.parquet')
        pq.write_table(table, path + '.tmp', compression=codec, row_group_size=3)
        os.replace(path + '.tmp', path)
        print('wrote', os.path.normpath(path))


def read_ours():
    for codec in ['snappy', 'none']:
        src = os.path.join(DIR, f'ours_{codec}.parquet')
        f = pq.ParquetFile(src)
        table = f.read()
        out = {'schema': str(table.schema), 'num_row_groups': f.num_row_groups, 'rows': table.to_pylist()}
        path = os.path.join(DIR, f'pyarrow_read_ours_{codec}.json')
        with open(path + '.tmp', 'w', encoding='utf-8') as g:
            json.dump(out, g, ensure_ascii=False, indent=1)
        os.replace(path + '.tmp', path)
        print('wrote', os.path.normpath(path), f'({pa.__version__})')


if __name__ == '__main__':
    write_pyarrow(load_rows())
    read_ours()
