import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { devnetCommand } from './devnet.js';
import { syncCommand } from './sync.js';
import { backfillCommand } from './backfill.js';
import { statusCommand } from './status.js';
import { repairCommand } from './repair.js';
import { compactCommand } from './compact.js';
import { demoCommand } from './demo.js';
import { queryCommand } from './query.js';
import { sqlCommand } from './sql.js';
import { reportCommand } from './report.js';
import { datasetsCommand } from './datasets.js';
import { migrateCommand } from './migrate.js';
import { ConfigError, EtlError } from '../core/errors.js';
import { withSecretScope } from '../core/secret-scope.js';
import { unknownName } from '../options/suggest.js';

const COMMAND_MODULES = [syncCommand, backfillCommand, statusCommand, repairCommand, migrateCommand, compactCommand, queryCommand, sqlCommand, reportCommand, datasetsCommand, devnetCommand, demoCommand] as CommandModule[];
/** `sync`, `backfill`, …: the first word of each command's usage. */
const COMMANDS = COMMAND_MODULES.map((module) => String(module.command).split(' ')[0] ?? '');

/**
 * Runs one command line (the words after `chain-etl`) and returns its exit code, having written a
 * failure's one-line message to `stderr`. The binary calls it once; tests call it in process. The
 * command runs in a secret scope of its own: the API key it reads is redacted from what it writes.
 */
export function runCli(args: readonly string[], stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  return withSecretScope(async (redactor) => {
    try {
      await parseAndRun(args);
      return 0;
    } catch (error) {
      if (error instanceof EtlError) {
        stderr.write(`chain-etl: ${redactor.redact(error.message)}\n`);
        return error.exitCode;
      }
      stderr.write(`chain-etl: unexpected failure: ${redactor.redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
      return 1;
    }
  });
}

async function parseAndRun(args: readonly string[]): Promise<void> {
  const [command] = args;
  if (command !== undefined && !command.startsWith('-') && !COMMANDS.includes(command)) {
    throw new ConfigError(unknownName(command, COMMANDS, { noun: 'command', listName: 'commands' }));
  }
  await yargs([...args])
    .scriptName('chain-etl')
    .command(COMMAND_MODULES)
    .demandCommand(1, 'name a command: chain-etl <command> --help')
    .strict()
    .recommendCommands()
    .fail((message, error) => {
      if (error !== undefined && error !== null) throw error;
      // yargs words some failures over several lines ("Invalid values:\n  Argument: …"): one line each.
      throw new ConfigError(message.replace(/\s*\n\s*/g, ' '));
    })
    .help()
    .parseAsync();
}
