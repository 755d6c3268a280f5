/**
 * The commands of chain-etl: each one's usage and description, which `chain-etl --help` lists without
 * importing any command, and its options and handler, imported only when that command runs (a cron
 * sync does not load the devnet, the report or the SQL shell: docs/design.md §3, start-up).
 */
import type { CommandModule } from 'yargs';
import { mark } from '../core/timeline.js';

/** A command's options and handler, from its module; `usage` and `describe` are declared here. */
type CommandBody = Pick<CommandModule, 'builder' | 'handler'>;

export interface CommandEntry {
  /** The command line's form, e.g. `sync <pipeline>`; its first word is the command's name. */
  readonly usage: string;
  readonly describe: string;
  readonly load: () => Promise<CommandBody>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    usage: 'sync <pipeline>',
    describe: "extend the warehouse from each stream's checkpoint to the settled tip, then exit (--follow: keep going)",
    load: async () => (await import('./sync.js')).syncCommand as CommandBody,
  },
  {
    usage: 'backfill <pipeline>',
    describe: 'fill a range of history; resumable: run the same command again after an interruption',
    load: async () => (await import('./backfill.js')).backfillCommand as CommandBody,
  },
  {
    usage: 'status <pipeline>',
    describe: 'checkpoints, covered ranges and holes with their dates, distance to the tip, rows per table, rejects and the last runs (while a run writes a DuckDB file: its progress); reads only, needs no API key',
    load: async () => (await import('./status.js')).statusCommand as CommandBody,
  },
  {
    usage: 'verify <pipeline>',
    describe: "check the stored chain against the chain's own facts (keys, masterchain seqnos, blocks' transaction counts, transaction links) inside what each stream covers; reads only, needs no API key",
    load: async () => (await import('./verify.js')).verifyCommand as CommandBody,
  },
  {
    usage: 'repair <pipeline>',
    describe: 'move damaged Parquet files to _damaged/ and fetch their rows again; fill every hole in what the streams cover',
    load: async () => (await import('./repair.js')).repairCommand as CommandBody,
  },
  {
    usage: 'migrate <pipeline>',
    describe: "migrate the pipeline's warehouse to this release's schema version in place (sync and backfill also do it first); fetches nothing",
    load: async () => (await import('./migrate.js')).migrateCommand as CommandBody,
  },
  {
    usage: 'compact <pipeline>',
    describe: "merge each settled day's Parquet files into one per table and day (the newest day stays as it is); needs no API key",
    load: async () => (await import('./compact.js')).compactCommand as CommandBody,
  },
  {
    usage: 'query <pipeline> <sql>',
    describe: 'run one SQL query over the warehouse (DuckDB file or Parquet manifest), read-only, with the views and ton(); needs no API key',
    load: async () => (await import('./query.js')).queryCommand as CommandBody,
  },
  {
    usage: 'sql <pipeline>',
    describe: 'interactive SQL over the warehouse, read-only: statements end with ;, .tables lists tables and views, .quit ends',
    load: async () => (await import('./sql.js')).sqlCommand as CommandBody,
  },
  {
    usage: 'report <pipeline>',
    describe: 'write one self-contained HTML page: rows per day per table, distance to the tip and throughput of recent runs, rejects; reads only',
    load: async () => (await import('./report.js')).reportCommand as CommandBody,
  },
  {
    usage: 'datasets [streams..]',
    describe: 'the streams and the tables, columns, types and docs each writes (all, or the streams named)',
    load: async () => (await import('./datasets.js')).datasetsCommand as CommandBody,
  },
  {
    usage: 'devnet',
    describe: 'a local Chain Data API over a deterministic chain (for demos, tests, benchmarks)',
    load: async () => (await import('./devnet.js')).devnetCommand,
  },
  {
    usage: 'demo',
    describe: 'sync a local devnet into data/demo.duckdb and data/demo-parquet/, then show what is there',
    load: async () => (await import('./demo.js')).demoCommand as CommandBody,
  },
];

/** `sync`, `backfill`, …: the first word of each command's usage. */
export const COMMAND_NAMES = COMMANDS.map(commandName);

export function commandName(entry: CommandEntry): string {
  return entry.usage.split(' ')[0] ?? '';
}

/**
 * The commands as yargs registers them: `running` with its options and handler (imported now), the
 * others by usage and description alone (enough for the list of commands).
 */
export async function commandModules(running: string | undefined): Promise<CommandModule[]> {
  return Promise.all(
    COMMANDS.map(async (entry) => {
      const name = commandName(entry);
      const head = { command: entry.usage, describe: entry.describe };
      if (name === running) {
        const body = await entry.load();
        mark(`${name} modules loaded`);
        return { ...head, ...body };
      }
      return {
        ...head,
        handler: () => {
          throw new Error(`the command ${name} ran without its module: the command line named ${running ?? 'no command'} first`);
        },
      };
    }),
  );
}
