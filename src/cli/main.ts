import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { devnetCommand } from './devnet.js';
import { syncCommand } from './sync.js';
import { backfillCommand } from './backfill.js';
import { statusCommand } from './status.js';
import { demoCommand } from './demo.js';
import { ConfigError, EtlError } from '../core/errors.js';
import { unknownName } from '../config/suggest.js';

const COMMAND_MODULES = [syncCommand, backfillCommand, statusCommand, devnetCommand, demoCommand] as CommandModule[];
/** `sync`, `backfill`, …: the first word of each command's usage. */
const COMMANDS = COMMAND_MODULES.map((module) => String(module.command).split(' ')[0] ?? '');

/** Entry point of the `chain-etl` binary: parse, call, print. */
export async function main(argv: readonly string[]): Promise<void> {
  const [command] = hideBin([...argv]);
  if (command !== undefined && !command.startsWith('-') && !COMMANDS.includes(command)) {
    throw new ConfigError(unknownName(command, COMMANDS, { noun: 'command', listName: 'commands' }));
  }
  await yargs(hideBin([...argv]))
    .scriptName('chain-etl')
    .command(COMMAND_MODULES)
    .demandCommand(1, 'name a command: chain-etl <command> --help')
    .strict()
    .recommendCommands()
    .fail((message, error, y) => {
      if (error !== undefined && error !== null) throw error;
      // yargs words some failures over several lines ("Invalid values:\n  Argument: …"): one line each.
      process.stderr.write(`${y.help() && ''}chain-etl: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
      process.exit(2);
    })
    .help()
    .parseAsync();
}

main(process.argv).catch((error: unknown) => {
  if (error instanceof EtlError) {
    process.stderr.write(`chain-etl: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`chain-etl: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
