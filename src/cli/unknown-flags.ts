import { nearest } from '../options/suggest.js';

/**
 * yargs' strict-mode failure for names it does not know (`Unknown arguments: folow, dry-rn, dryRn`,
 * camel-case twins included) as one line that names each and the closest flag of the command, e.g.
 * `unknown flag --folow: did you mean --follow? (chain-etl sync --help lists what it takes)`;
 * undefined for any other failure.
 */
export function unknownArgumentsMessage(message: string, args: readonly string[], flags: readonly string[], command: string | undefined): string | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(', ');
  if (listed === undefined) return undefined;
  const names = listed.filter((name) => !listed.some((other) => other !== name && camelCase(other) === name));
  const typed = new Set(args.filter((arg) => arg.startsWith('-')).map((arg) => arg.replace(/^-+/, '').replace(/=.*$/, '')));
  const kebabFlags = flags.filter((flag) => !/[A-Z]/.test(flag));
  const parts = names.map((name) => {
    if (!typed.has(name)) return `unexpected argument ${JSON.stringify(name)}`;
    const guess = nearest(name.replaceAll('-', '_'), kebabFlags.map((flag) => flag.replaceAll('-', '_')));
    const flag = `${name.length === 1 ? '-' : '--'}${name}`;
    return guess === undefined ? `unknown flag ${flag}` : `unknown flag ${flag}: did you mean --${guess.replaceAll('_', '-')}?`;
  });
  return `${parts.join('; ')} (chain-etl ${command === undefined ? '' : `${command} `}--help lists what it takes)`;
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
