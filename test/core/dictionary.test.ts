import { describe, expect, it } from 'vitest';
import { amount, hash, logicalTime, text } from '../../src/core/column-kinds.js';
import { dictionaryMarkdown } from '../../src/core/dictionary.js';
import { defineTable } from '../../src/core/table.js';
import { utcDay } from '../../src/core/utc-day.js';

const actions = defineTable({
  name: 'actions',
  doc: 'One classified action of a trace.',
  columns: {
    trace_id: hash.doc('Trace the action belongs to.'),
    action_id: text.doc('Action id | unique within the trace.'),
    trace_end_lt: logicalTime.doc('End lt of the trace.'),
    value: amount.nullable().doc('Amount moved, if any.'),
  },
  primaryKey: ['trace_id', 'action_id'],
  partitionBy: () => utcDay(0),
  replaceBy: 'trace_id',
  clusterBy: 'trace_end_lt',
});

describe('dictionaryMarkdown', () => {
  it('renders the golden dictionary: table facts, columns, then a legend of the kinds used', () => {
    expect(dictionaryMarkdown([actions])).toBe(`# Data dictionary

## actions

One classified action of a trace.

- Primary key: \`trace_id\`, \`action_id\`.
- Replaced by \`trace_id\`: a commit replaces all rows of each value it carries.
- Parquet: partitioned by UTC day (\`date=YYYY-MM-DD\`).
- Parquet files are sorted by \`trace_end_lt\`.

| column | kind | DuckDB type | null | description |
|---|---|---|---|---|
| trace_id | hash | VARCHAR | no | Trace the action belongs to. |
| action_id | text | VARCHAR | no | Action id \\| unique within the trace. |
| trace_end_lt | logicalTime | UBIGINT | no | End lt of the trace. |
| value | amount | DECIMAL(38,0) | yes | Amount moved, if any. |

## Column kinds

| kind | DuckDB type | Parquet storage | meaning |
|---|---|---|---|
| hash | VARCHAR | BYTE_ARRAY (UTF8) | 32-byte hash in standard base64 (44 characters), as the API sends it. |
| text | VARCHAR | BYTE_ARRAY (UTF8) | Text. |
| logicalTime | UBIGINT | INT64 (INT_64) | Logical time (lt), exact; below 2^63, so that Parquet stores it as a signed 64-bit integer. |
| amount | DECIMAL(38,0) | FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,0)) | Exact integer amount in base units (nanoton or jetton units), up to 38 digits. |
`);
  });
});
