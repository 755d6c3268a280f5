/**
 * The flags of `query` and `sql` that shape their output: `--format`, and `--max-width`, the line width
 * a table fits in. On a terminal it defaults to the terminal's width, read at each result (a resized
 * window gets its width); elsewhere (a pipe, a file) to no limit, as psql prints in a pipe: a script
 * or `less -S` gets every value whole.
 */
import type { Argv } from 'yargs';
import { ConfigError } from '../core/errors.js';
import { RESULT_FORMATS, type ResultFormat } from './result-format.js';

export interface ResultArgs {
  format: ResultFormat;
  'max-width'?: string;
  'csv-raw': boolean;
}

export function resultOptions<T>(y: Argv<T>, formatDescription: string): Argv<T & ResultArgs> {
  return y.options({
    format: { choices: RESULT_FORMATS, default: 'table' as ResultFormat, describe: formatDescription },
    'max-width': {
      type: 'string',
      describe: "columns a table fits in, cutting long values with … and leaving out the columns that do not fit; 0 for no limit (default: the terminal's width on a terminal, else no limit)",
    },
    'csv-raw': {
      type: 'boolean',
      default: false,
      describe: "csv: text cells exactly as stored; by default one starting with = + - @ (a spreadsheet formula) gets a leading '",
    },
  }) as Argv<T & ResultArgs>;
}

/** `--max-width` as a number of columns (0 for no limit), undefined when not given; checked before anything runs. */
export function maxWidthFlag(args: ResultArgs): number | undefined {
  const text = args['max-width'];
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new ConfigError(`--max-width: expected a whole number of columns (0 for no limit), got "${text}"`);
  return Number(text);
}

/** The line width a table fits in now: the flag's, else the terminal's; 0 for no limit. */
export function lineWidth(flag: number | undefined, stdout: NodeJS.WriteStream = process.stdout): number {
  return flag ?? (stdout.isTTY === true ? (stdout.columns ?? 0) : 0);
}
