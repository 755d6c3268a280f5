import type { AnyTable } from '../../core/table.js';
import type { Manifest, ManifestFile } from './manifest.js';

/** Listed files of one table and one day that a commit rewrites into one file with the same rows. */
export interface FileMerge {
  readonly table: AnyTable;
  readonly files: readonly ManifestFile[];
}

/** Which days `compactionPlan` merges. */
export interface CompactionScope {
  /** A day (an unpartitioned table: all its files) is merged when it holds more files than this. @default 1 */
  readonly maxFiles?: number;
  /** Merge each table's newest day too, which syncs still append to. @default false */
  readonly newestDay?: boolean;
}

/**
 * The merges that leave one file per table and settled day: every day of a partitioned table but its
 * newest (the one syncs still append to) that has more than `maxFiles` files; an unpartitioned table's
 * files are one group. Days are merged whole, so a day never mixes merged and unmerged files.
 */
export function compactionPlan(manifest: Manifest, tables: readonly AnyTable[], scope: CompactionScope = {}): FileMerge[] {
  const { maxFiles = 1, newestDay = false } = scope;
  const merges: FileMerge[] = [];
  for (const table of tables) {
    const files = manifest.tables[table.name]?.files ?? [];
    const days = new Map<string, ManifestFile[]>();
    for (const file of files) days.set(file.date ?? '', [...(days.get(file.date ?? '') ?? []), file]);
    const newest = table.partitionBy === undefined || newestDay ? undefined : [...days.keys()].sort().at(-1);
    for (const [day, group] of days) {
      if (day !== newest && group.length > maxFiles) merges.push({ table, files: group });
    }
  }
  return merges;
}

/** The manifest entry of files merged into `path`: their day, rows and clusterBy range. */
export function mergedFile(path: string, files: readonly ManifestFile[], bytes: number): ManifestFile {
  const first = files[0]!;
  const ranged = files.every((file) => file.clusterMin !== undefined && file.clusterMax !== undefined);
  const bounds = (pick: (file: ManifestFile) => string, better: (a: bigint, b: bigint) => boolean): string =>
    String(files.map((file) => BigInt(pick(file))).reduce((a, b) => (better(b, a) ? b : a)));
  return {
    path,
    ...(first.date === undefined ? {} : { date: first.date }),
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    bytes,
    ...(ranged ? { clusterMin: bounds((file) => file.clusterMin!, (a, b) => a < b), clusterMax: bounds((file) => file.clusterMax!, (a, b) => a > b) } : {}),
  };
}

/** `files` with the first of `merged` replaced by `file` and the rest of them dropped, in place of commit order. */
export function replaceFiles(files: readonly ManifestFile[], merged: readonly ManifestFile[], file: ManifestFile): ManifestFile[] {
  const gone = new Set(merged.map((one) => one.path));
  return files.flatMap((one) => (one.path === merged[0]!.path ? [file] : gone.has(one.path) ? [] : [one]));
}
