import yargs from 'yargs';
import { COMMAND_NAMES, commandModules } from './commands.js';
import { ConfigError, EtlError } from '../core/errors.js';
import { withSecretScope } from '../core/secret-scope.js';
import { unknownName } from '../options/suggest.js';
import { unknownArgumentsMessage } from './unknown-flags.js';
import { packageVersion } from './version.js';
import { mark } from '../core/timeline.js';

export { endQuietlyWhenOutputCloses } from './closed-pipe.js';

/**
 * Runs one command line (the words after `chain-etl`) and returns its exit code, having written a
 * failure's one-line message to `stderr`. The binary calls it once; tests call it in process. The
 * command runs in a secret scope of its own: the API key it reads is redacted from what it writes.
 */
export function runCli(args: readonly string[], stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  mark('CLI modules loaded');
  return withSecretScope(async (redactor) => {
    try {
      await parseAndRun(args);
      mark('command done');
      return 0;
    } catch (thrown) {
      // Loaded only on a failure: a command that succeeds never imports it.
      const error = (await (await import('../load/storage-error.js')).storageErrorOf(thrown)) ?? thrown;
      if (error instanceof EtlError) {
        stderr.write(`chain-etl: ${redactor.redact(error.message)}\n`);
        return error.exitCode;
      }
      stderr.write(`chain-etl: unexpected failure: ${redactor.redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
      return 1;
    }
  });
}

/** yargs' own record of the options it was given (not in its type declarations). */
interface DeclaredOptions {
  getOptions(): { readonly key: Readonly<Record<string, unknown>> };
}

async function parseAndRun(args: readonly string[]): Promise<void> {
  const [command] = args;
  if (command !== undefined && !command.startsWith('-') && !COMMAND_NAMES.includes(command)) {
    throw new ConfigError(unknownName(command, COMMAND_NAMES, { noun: 'command', listName: 'commands' }));
  }
  // Only the command that runs is imported (`chain-etl --help sync` names it after a flag).
  const running = args.find((arg) => COMMAND_NAMES.includes(arg));
  const parser = yargs([...args]);
  await parser
    .scriptName('chain-etl')
    .command(await commandModules(running))
    .demandCommand(1, 'name a command: chain-etl <command> --help')
    .strict()
    .recommendCommands()
    .fail((message, error) => {
      if (error !== undefined && error !== null) throw error;
      // By now the parser holds the options of the command that failed.
      const unknown = unknownArgumentsMessage(message, args, Object.keys((parser as unknown as DeclaredOptions).getOptions().key), running);
      // yargs words some failures over several lines ("Invalid values:\n  Argument: …"): one line each.
      throw new ConfigError(unknown ?? message.replace(/\s*\n\s*/g, ' '));
    })
    .version(packageVersion())
    .help()
    .parseAsync();
}
