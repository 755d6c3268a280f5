/**
 * `chain-etl datasets`: the streams and their tables as the registry declares them. The exact text of
 * one stream; with `--json` the document's shape for every stream, its values read from the table
 * definitions; names filter and keep their order; an unknown name is a usage error with a suggestion.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_NAMES, streams } from '../../src/streams/index.js';
import { runInProcess } from '../support/cli-in-process.js';

describe('chain-etl datasets', () => {
  it('prints one stream as text: its endpoint and axis, doc, filters, then its table with a line per column', async () => {
    const { code, stdout, stderr } = await runInProcess(['datasets', 'traces']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'traces (/api/v3/traces, paged by lt)',
        '  Complete traces, one row each keyed by trace_id; re-read over actions_overlap.',
        '  filters:',
        '    account  address  Only traces with a transaction of this account.',
        '',
        '  table traces (key trace_id)',
        '    One row per complete trace: the tree of transactions one external message (or a tick-tock) set off, keyed by trace_id; its transactions carry the same trace_id. A trace is stored once complete and its row replaced when read again (classification comes later).',
        '    trace_id              VARCHAR            Trace id: the hash of its first transaction (the key).',
        '    external_hash         VARCHAR      null  Hash of the external message that started the trace (null for a tick-tock).',
        '    start_lt              UBIGINT            Logical time of its first transaction.',
        '    end_lt                UBIGINT            Logical time of its last transaction, when the trace completed: the position the stream pages by.',
        '    start_time            TIMESTAMPTZ        Time of its first transaction.',
        '    end_time              TIMESTAMPTZ        Time of its last transaction.',
        '    block_date            DATE               UTC day of end_time.',
        '    mc_seqno_start        INTEGER            Masterchain block holding its first transaction.',
        '    mc_seqno_end          INTEGER            Masterchain block in which it completed (joins actions.trace_mc_seqno_end).',
        '    tx_count              INTEGER            Transactions in the trace.',
        '    msg_count             INTEGER            Messages in the trace as the indexer counts them (the external message that started it included).',
        '    trace_state           VARCHAR            complete (the stream stores no other state; pending and broken traces are left out).',
        '    classification_state  VARCHAR            Whether the indexer has classified its actions: unclassified, ok, failed or broken; unknown values kept as sent. Re-read over actions_overlap.',
        '',
      ].join('\n'),
    );
  });

  it('prints every stream with --json, in registry order, each table as its definition declares it', async () => {
    const { code, stdout } = await runInProcess(['datasets', '--json']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as { streams: Record<string, unknown>[] };
    expect(Object.keys(document)).toEqual(['streams']);
    expect(document.streams.map((s) => s.name)).toEqual(STREAM_NAMES);
    for (const [index, stream] of streams.entries()) {
      const dataset = document.streams[index]!;
      expect(Object.keys(dataset)).toEqual(['name', 'doc', 'endpoint', 'axis', 'rescans_overlap', 'filters', 'tables']);
      expect(dataset).toMatchObject({ doc: stream.doc, endpoint: stream.endpoint, axis: stream.axis, rescans_overlap: stream.rescansOverlap });
      expect((dataset.filters as { name: string }[]).map((f) => f.name)).toEqual(Object.keys(stream.filters));
      const tables = dataset.tables as Record<string, unknown>[];
      expect(tables.map((t) => t.name)).toEqual(stream.tables.map((t) => t.name));
      for (const [t, table] of stream.tables.entries()) {
        expect(tables[t]).toEqual({
          name: table.name,
          doc: table.doc,
          primary_key: table.primaryKey,
          replace_by: table.replaceBy ?? null,
          cluster_by: table.clusterBy ?? null,
          partitioned_by_day: table.partitionBy !== undefined,
          columns: table.columnNames.map((name) => {
            const kind = table.columns[name]!;
            return { name, kind: kind.kind, duckdb_type: kind.sqlType, parquet_type: kind.parquetType, nullable: kind.isNullable, doc: kind.description };
          }),
        });
      }
    }
  });

  it('keeps the streams named, in the order named, each once', async () => {
    const { code, stdout } = await runInProcess(['datasets', 'traces', 'blocks', 'traces', '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { streams: { name: string }[] }).streams.map((s) => s.name)).toEqual(['traces', 'blocks']);
  });

  it('refuses an unknown stream with exit 2, naming the closest one and printing nothing', async () => {
    const { code, stdout, stderr } = await runInProcess(['datasets', 'traces', 'tracs']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`chain-etl: unknown stream "tracs": did you mean "traces"? (streams: ${STREAM_NAMES.join(', ')})\n`);
  });
});
