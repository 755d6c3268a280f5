import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { devnetCommand } from './devnet.js';
import { syncCommand } from './sync.js';
import { backfillCommand } from './backfill.js';
import { statusCommand } from './status.js';
import { demoCommand } from './demo.js';
import { EtlError } from '../core/errors.js';

/** Entry point of the `chain-etl` binary: parse, call, print. */
export async function main(argv: readonly string[]): Promise<void> {
  await yargs(hideBin([...argv]))
    .scriptName('chain-etl')
    .command(syncCommand as CommandModule)
    .command(backfillCommand as CommandModule)
    .command(statusCommand as CommandModule)
    .command(devnetCommand)
    .command(demoCommand as CommandModule)
    .demandCommand(1, 'name a command: chain-etl <command> --help')
    .strict()
    .recommendCommands()
    .fail((message, error, y) => {
      if (error !== undefined && error !== null) throw error;
      process.stderr.write(`${y.help() && ''}chain-etl: ${message}\n`);
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
