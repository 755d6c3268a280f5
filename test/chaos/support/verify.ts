/**
 * The judgement of a chaos scenario: the warehouse against the devnet truth over the synced range
 * (each stream from the pipeline's start up to its checkpoint, or a backfill's fixed range), with
 * every data table (DuckDB tables; Parquet through the manifest and through the raw glob), the files
 * of a Parquet folder against its manifest, and the addresses. The counts become a table row.
 */
import type { StreamDefinition } from '../../../src/core/stream.js';
import type { Devnet } from '../../../src/devnet/index.js';
import { UNKNOWN_ENUM } from '../../../src/devnet/http/fault-transforms.js';
import type { Row } from '../../../src/core/table.js';
import { addressProblems } from '../../support/address-check.js';
import { mcBlock, positionAt, type Bounds } from '../../support/chain-points.js';
import { expectedWarehouse } from '../../support/expected-rows.js';
import { describeDiff, diffRows, diffWarehouse, keyOf, tableNamed, type RowDiff } from '../../support/row-diff.js';
import { FIRST_MC } from '../../support/test-devnet.js';
import type { Snapshot } from '../../support/warehouse-snapshot.js';
import type { ScenarioRow } from './table.js';

/** Tables with a `finality` column, where the faults profile's unknown enum value must be kept as text. */
const FINALITY_TABLES = ['transactions', 'actions'];

export interface Verdict {
  readonly expected: number;
  readonly found: number;
  readonly missing: number;
  readonly extra: number;
  readonly duplicated: number;
  readonly changed: number;
  /** Missing rows per table (tables with none left out). */
  readonly missingByTable: Readonly<Record<string, number>>;
  /** Changed rows per table (tables with none left out). */
  readonly changedByTable: Readonly<Record<string, number>>;
  /** Rows that hold `finality = 'unknown_3'` where the truth says otherwise (kept as sent: not a change). */
  readonly unknownEnum: number;
  /** Everything else that is wrong: diffs per table, files, addresses, rejects. Empty when all is well. */
  readonly problems: readonly string[];
  /** What was checked besides the rows, for the table's notes. */
  readonly notes: readonly string[];
}

export const CLEAN = { missing: 0, extra: 0, duplicated: 0, changed: 0, problems: [] as string[] };

/** The counts that must all be zero, for `toEqual(CLEAN)`. */
export function faults(verdict: Verdict): typeof CLEAN {
  return { missing: verdict.missing, extra: verdict.extra, duplicated: verdict.duplicated, changed: verdict.changed, problems: [...verdict.problems] };
}

/** Bounds of a sync: from the pipeline start (`start: { mc_seqno: FIRST_MC }`) up to each stream's checkpoint. */
export function syncedBounds(devnet: Devnet, snapshot: Snapshot): (stream: StreamDefinition) => Bounds {
  const first = mcBlock(devnet, FIRST_MC);
  return (stream) => {
    const checkpoint = snapshot.checkpoints.get(stream.name);
    if (checkpoint === undefined) throw new Error(`the warehouse has no checkpoint for ${stream.name}`);
    return { from: positionAt(first, stream), to: checkpoint };
  };
}

/**
 * Rows of the finality tables with `finality` set back to the truth's value where the warehouse
 * holds the unknown enum value the faults profile injected: that value must be stored as sent,
 * which is not a change. Returns the rows and how many held it.
 */
function acceptUnknownEnum(expected: ReadonlyMap<string, Row[]>, tables: ReadonlyMap<string, Row[]>): { tables: Map<string, Row[]>; unknown: number } {
  const out = new Map(tables);
  let unknown = 0;
  for (const name of FINALITY_TABLES) {
    const table = tableNamed(name);
    const truth = new Map((expected.get(name) ?? []).map((row) => [keyOf(table, row), row]));
    out.set(
      name,
      (tables.get(name) ?? []).map((row) => {
        if (row.finality !== UNKNOWN_ENUM) return row;
        const want = truth.get(keyOf(table, row));
        if (want === undefined || want.finality === UNKNOWN_ENUM) return row;
        unknown += 1;
        return { ...row, finality: want.finality };
      }),
    );
  }
  return { tables: out, unknown };
}

function sum(diffs: readonly RowDiff[], pick: (diff: RowDiff) => number): number {
  return diffs.reduce((total, diff) => total + pick(diff), 0);
}

export interface VerifyOptions {
  /** Rows carrying the injected unknown enum value count as equal (faults scenarios). @default false */
  readonly unknownEnumAllowed?: boolean;
}

/** The warehouse against the truth for `boundsOf`, plus files, addresses and rejects. */
export function verifyWarehouse(
  devnet: Devnet,
  snapshot: Snapshot,
  boundsOf: (stream: StreamDefinition) => Bounds,
  options: VerifyOptions = {},
): Verdict {
  const expected = expectedWarehouse(devnet, boundsOf);
  const problems: string[] = [...verifyFindings(snapshot)];
  const notes: string[] = [];
  const judge = (label: string, raw: ReadonlyMap<string, Row[]>): { diffs: RowDiff[]; unknown: number } => {
    const { tables, unknown } = options.unknownEnumAllowed ? acceptUnknownEnum(expected, raw) : { tables: raw, unknown: 0 };
    const diffs = diffWarehouse(expected, tables);
    for (const diff of diffs) {
      if (diff.missing + diff.extra + diff.changed + diff.duplicates > 0) problems.push(`${label} ${describeDiff(diff)}`);
      if (diff.expected === 0) problems.push(`${label} ${diff.table}: the truth has no rows in the range (the scenario proves nothing)`);
    }
    return { diffs, unknown };
  };
  const main = judge(snapshot.kind === 'parquet' ? 'manifest views:' : 'tables:', snapshot.tables);
  let worst = main.diffs;
  if (snapshot.glob !== undefined) {
    const glob = judge('parquet glob:', snapshot.glob);
    const bad = (diffs: RowDiff[]): number => sum(diffs, (d) => d.missing + d.extra + d.changed + d.duplicates);
    if (bad(glob.diffs) > bad(worst)) worst = glob.diffs;
    notes.push(bad(glob.diffs) === 0 ? 'glob = truth' : `glob: ${bad(glob.diffs)} bad rows`);
  }
  if (snapshot.files !== undefined) {
    const listed = [...snapshot.files.listed].sort();
    const onDisk = snapshot.files.onDisk;
    const unlisted = onDisk.filter((file) => !listed.includes(file));
    const absent = listed.filter((file) => !onDisk.includes(file));
    if (unlisted.length > 0) problems.push(`files outside the manifest: ${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? ', …' : ''}`);
    if (absent.length > 0) problems.push(`files the manifest lists but the folder lacks: ${absent.slice(0, 5).join(', ')}`);
    if (unlisted.length === 0 && absent.length === 0) notes.push(`${onDisk.length} files = manifest`);
  }
  const addresses = snapshot.tables.get('addresses') ?? [];
  const addressIssues = addressProblems(devnet, addresses);
  if (addressIssues.length > 0) problems.push(`addresses: ${addressIssues.slice(0, 3).join('; ')}`);
  const addressTable = tableNamed('addresses');
  const addressDups = diffRows(addressTable, addresses, addresses).duplicates;
  if (addressDups > 0) problems.push(`addresses: ${addressDups} duplicate keys`);
  if (snapshot.glob !== undefined) {
    const viaGlob = diffRows(addressTable, addresses, snapshot.glob.get('addresses') ?? []);
    if (viaGlob.missing + viaGlob.extra + viaGlob.changed + viaGlob.duplicates > 0) problems.push(`parquet glob: ${describeDiff(viaGlob)}`);
  }
  if (snapshot.rejects > 0) problems.push(`${snapshot.rejects} rows in _etl_rejects`);
  if (options.unknownEnumAllowed) notes.push(`${main.unknown} rows kept finality ${UNKNOWN_ENUM}`);
  return {
    expected: sum(main.diffs, (d) => d.expected),
    found: sum(main.diffs, (d) => d.actual),
    missing: sum(worst, (d) => d.missing),
    extra: sum(worst, (d) => d.extra),
    duplicated: sum(worst, (d) => d.duplicates),
    changed: sum(worst, (d) => d.changed),
    missingByTable: Object.fromEntries(worst.filter((d) => d.missing > 0).map((d) => [d.table, d.missing])),
    changedByTable: Object.fromEntries(worst.filter((d) => d.changed > 0).map((d) => [d.table, d.changed])),
    unknownEnum: main.unknown,
    problems,
    notes,
  };
}

/**
 * A warehouse left by a killed or interrupted run: nothing outside the whole range or different
 * from the truth, no duplicate key, and everything up to each stream's checkpoint present (the
 * manifest view for Parquet: the glob may hold a crash's leftovers until the next open).
 * Returns the problems (empty when consistent).
 */
export function prefixProblems(
  devnet: Devnet,
  snapshot: Snapshot,
  whole: (stream: StreamDefinition) => Bounds,
): string[] {
  const problems: string[] = [...verifyFindings(snapshot)];
  for (const diff of diffWarehouse(expectedWarehouse(devnet, whole), snapshot.tables)) {
    if (diff.extra + diff.changed + diff.duplicates > 0) problems.push(`beyond the truth: ${describeDiff(diff)}`);
  }
  // Every row below the checkpoints is there (by key: the values were compared above).
  const prefix = expectedWarehouse(devnet, (stream) => {
    const checkpoint = snapshot.checkpoints.get(stream.name);
    return { from: whole(stream).from, to: checkpoint ?? whole(stream).from - 1n };
  });
  for (const [name, rows] of prefix) {
    const table = tableNamed(name);
    const have = new Set((snapshot.tables.get(name) ?? []).map((row) => keyOf(table, row)));
    const missing = rows.filter((row) => !have.has(keyOf(table, row)));
    if (missing.length > 0) problems.push(`below the checkpoint: ${name}: ${missing.length} of ${rows.length} rows missing, e.g. ${keyOf(table, missing[0]!)}`);
  }
  if (snapshot.files !== undefined) {
    const onDisk = new Set(snapshot.files.onDisk);
    const absent = snapshot.files.listed.filter((file) => !onDisk.has(file));
    if (absent.length > 0) problems.push(`the manifest lists files the folder lacks: ${absent.join(', ')}`);
  }
  return problems;
}

/** What `chain-etl verify`'s checks found in the snapshot (read with `readVerified`), as problems. */
function verifyFindings(snapshot: Snapshot): string[] {
  return (snapshot.inconsistencies ?? []).map((line) => `verify: ${line}`);
}

export function tableRow(scenario: string, sink: string, verdict: Verdict, exits: string, notes: readonly string[] = []): ScenarioRow {
  return {
    scenario,
    sink,
    expected: verdict.expected,
    found: verdict.found,
    missing: verdict.missing,
    extra: verdict.extra,
    duplicated: verdict.duplicated,
    changed: verdict.changed,
    exits,
    notes: [...notes, ...verdict.notes, ...(verdict.problems.length > 0 ? [`PROBLEMS: ${verdict.problems.length}`] : [])].join('; '),
  };
}
