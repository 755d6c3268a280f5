/**
 * `_etl_days`: for every data table with a `block_date` of a position stream, each UTC day it holds
 * rows of or that lies at least partly inside the stream's covered ranges, with its rows (0 for a
 * covered day without any) and whether it is complete, so that a notebook can refuse a partial day
 * (`WHERE complete`). Made from the stream registry (which tables, their axis, the time each
 * table's `block_date` is the day of) and the tables a warehouse holds; the rule is in
 * docs/design.md §4.
 */
import { writtenRangeKey } from '../core/bookkeeping.js';
import { quotedIdentifier, quotedString } from '../core/sql-quote.js';
import type { StreamDefinition } from '../core/stream.js';
import { BLOCK_DATE_COLUMN, type AnyTable } from '../core/table.js';
import type { AnalystDefinitions, ViewDefinition, ViewScope } from '../core/warehouse-views.js';
import { blocksTable } from './blocks.js';
import { streams } from './index.js';

const q = quotedIdentifier;
const DAY_SECONDS = 86_400;
/** A day as unix seconds: the first second of `block_date`, whatever the session's time zone. */
const DAY_START = `(l.${q(BLOCK_DATE_COLUMN)} - DATE '1970-01-01') * ${DAY_SECONDS}`;

/** A table the view lists, and the stream whose checkpoint covers it. */
interface DayTable {
  readonly table: AnyTable;
  readonly stream: StreamDefinition;
}

/** Every table with a `block_date` of a position stream; snapshot and bookkeeping tables have none. */
export const DAY_TABLES: readonly DayTable[] = streams.flatMap((stream) => stream.tables.filter((table) => table.dayOf !== undefined).map((table) => ({ table, stream })));

const EMPTY = `SELECT CAST(NULL AS VARCHAR) AS table_name, CAST(NULL AS DATE) AS ${q(BLOCK_DATE_COLUMN)}, CAST(NULL AS BIGINT) AS rows, CAST(NULL AS BOOLEAN) AS complete WHERE false`;

/**
 * The view's query over the tables of `scope` (a pipeline may store only some streams): the
 * covered ranges of each checkpoint (none for a checkpoint of an earlier release: coverage unknown),
 * each made a span of unix seconds per range, the days those spans touch beside the days the tables
 * hold rows of, and a day complete where one span holds it whole and no unchecked range of the table
 * (rows the stored checks have not passed yet) holds a row of it.
 */
function etlDaysSql({ tables, records }: ViewScope): string {
  const listed = DAY_TABLES.filter(({ table }) => tables.has(table.name));
  if (listed.length === 0) return EMPTY;
  const covering = [...new Set(listed.map(({ stream }) => stream))];
  const prefix = writtenRangeKey('unchecked', '');
  const bound = (index: number): string => `CAST(r[${index}] AS HUGEINT)`;
  return [
    'WITH',
    `checkpoint AS (SELECT stream, position FROM ${records.checkpoints} WHERE json_valid(position)),`,
    // A range's positions are settled below the stream's earliest item the service may still change (`open`).
    `covered AS (SELECT stream, ${bound(1)} AS lo, ${bound(2)} AS hi, least(${bound(2)}, coalesce(CAST(position->>'open' AS HUGEINT) - 1, ${bound(2)})) AS settled`,
    "  FROM (SELECT stream, position, unnest(CAST(json_extract(position, '$.covered') AS VARCHAR[][])) AS r FROM checkpoint)),",
    `unchecked AS (SELECT substr(key, ${prefix.length + 1}) AS table_name, CAST(value->>'min' AS HUGEINT) AS lo, CAST(value->>'max' AS HUGEINT) AS hi`,
    `  FROM ${records.meta} WHERE starts_with(key, ${quotedString(prefix)}) AND json_valid(value)),`,
    `spans AS (${covering.map((stream) => spansSql(stream, tables)).join('\n  UNION ALL ')}),`,
    `days AS (SELECT DISTINCT stream, DATE '1970-01-01' + CAST(day AS INTEGER) AS ${q(BLOCK_DATE_COLUMN)}`,
    `  FROM (SELECT stream, unnest(range(seen_from // ${DAY_SECONDS}, seen_to // ${DAY_SECONDS} + 1)) AS day FROM spans)),`,
    `stored AS (${listed.map(storedSql).join('\n  UNION ALL ')}),`,
    `listed AS (SELECT table_name, stream, ${q(BLOCK_DATE_COLUMN)} FROM stored`,
    `  UNION SELECT t.table_name, t.stream, d.${q(BLOCK_DATE_COLUMN)} FROM (VALUES ${listed.map(({ table, stream }) => `(${quotedString(table.name)}, ${quotedString(stream.name)})`).join(', ')}) AS t(table_name, stream)`,
    '  JOIN days AS d USING (stream))',
    `SELECT l.table_name, l.${q(BLOCK_DATE_COLUMN)}, coalesce(s.rows, 0) AS rows,`,
    `  coalesce(NOT s.unverified, true) AND EXISTS (SELECT 1 FROM spans AS p WHERE p.stream = l.stream AND p.whole_from <= ${DAY_START} AND p.whole_to >= ${DAY_START} + ${DAY_SECONDS - 1}) AS complete`,
    `FROM listed AS l LEFT JOIN stored AS s USING (table_name, ${q(BLOCK_DATE_COLUMN)})`,
    `ORDER BY l.table_name, l.${q(BLOCK_DATE_COLUMN)}`,
  ].join('\n');
}

/**
 * Per covered range of `stream`, in unix seconds: the span it is seen to reach (`seen_from`,
 * `seen_to`: the days it touches) and the seconds it holds whole and settled (`whole_from`,
 * `whole_to`). A utime range is its own bounds. An lt range is placed in time by the known points
 * (lt, time) inside it: a second strictly between its earliest point and its latest settled one is
 * held whole, since every item of that second lies between those two lts.
 */
function spansSql(stream: StreamDefinition, tables: ReadonlySet<string>): string {
  const name = quotedString(stream.name);
  if (stream.axis === 'utime') {
    return `SELECT ${name} AS stream, CAST(lo AS BIGINT) AS seen_from, CAST(hi AS BIGINT) AS seen_to, CAST(lo AS BIGINT) AS whole_from, CAST(settled AS BIGINT) AS whole_to FROM covered WHERE stream = ${name}`;
  }
  return (
    `SELECT ${name} AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to ` +
    `FROM covered AS c JOIN (${knownPointsSql(stream, tables)}) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = ${name} GROUP BY c.lo, c.hi`
  );
}

/**
 * The points (lt, unix second) an lt stream's ranges are placed by: every stored row of its tables,
 * and the masterchain blocks where the warehouse stores them, one every few seconds, so that a sparse
 * table's days are complete too.
 */
function knownPointsSql(stream: StreamDefinition, tables: ReadonlySet<string>): string {
  const points = (table: AnyTable, lt: string, time: string, where = ''): string =>
    `SELECT ${q(lt)} AS lt, CAST(floor(epoch(${q(time)})) AS BIGINT) AS s FROM ${q(table.name)}${where}`;
  const own = stream.tables.filter((table) => tables.has(table.name)).map((table) => points(table, table.clusterBy!, table.dayOf!));
  const masterchain = tables.has(blocksTable.name) ? [points(blocksTable, 'start_lt', 'block_time', ' WHERE workchain = -1')] : [];
  return [...own, ...masterchain].join(' UNION ALL ');
}

/** A table's rows per day, and whether its unchecked range holds one of them (a table without `clusterBy` has none). */
function storedSql({ table, stream }: DayTable): string {
  const name = quotedString(table.name);
  const unverified = table.clusterBy === undefined ? 'false' : `count(*) FILTER (WHERE t.${q(table.clusterBy)} BETWEEN u.lo AND u.hi) > 0`;
  const unchecked = table.clusterBy === undefined ? '' : ` LEFT JOIN unchecked AS u ON u.table_name = ${name}`;
  return (
    `SELECT ${name} AS table_name, ${quotedString(stream.name)} AS stream, t.${q(BLOCK_DATE_COLUMN)}, count(*) AS rows, ${unverified} AS unverified ` +
    `FROM ${q(table.name)} AS t${unchecked} GROUP BY t.${q(BLOCK_DATE_COLUMN)}`
  );
}

export const etlDaysView: ViewDefinition = {
  name: '_etl_days',
  doc:
    'One row per data table with a block_date and UTC day that the table holds rows of or that lies at least partly inside its stream\'s covered ranges: rows (0 for a covered day without rows) and complete, true when the whole day lies inside one covered range of the stream\'s checkpoint, before any item the service may still change (the checkpoint\'s open position), and no unchecked range of the table (rows written that the stored checks have not passed yet) holds a row of it. WHERE complete keeps whole days only; the newest day stays partial until the coverage has passed its end.',
  reads: [],
  select: etlDaysSql,
};

/** The view alone, for the read-only sessions of status and verify. */
export const etlDaysDefinitions: AnalystDefinitions = { macros: [], views: [etlDaysView] };
