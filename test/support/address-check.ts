/** `addresses` rows judged against the devnet's address book. */
import type { Devnet } from '../../src/devnet/index.js';
import { RenderContext } from '../../src/devnet/render/context.js';
import type { Row } from '../../src/core/table.js';
import { canonical } from './row-diff.js';

/** Problems of `addresses` rows against the devnet's address book (user-friendly form, interfaces, no domain). */
export function addressProblems(devnet: Devnet, rows: readonly Row[]): string[] {
  const chain = devnet.generator.chain;
  const render = new RenderContext(chain, 'mainnet');
  const problems: string[] = [];
  for (const row of rows) {
    const address = String(row.address);
    const index = chain.population.byRaw.get(address);
    if (index === undefined) {
      problems.push(`${address}: not an account of the devnet`);
      continue;
    }
    const friendly = render.userFriendly(index);
    if (row.user_friendly !== friendly) problems.push(`${address}: user_friendly ${String(row.user_friendly)}, the devnet renders ${friendly}`);
    const interfaces = chain.population.accountAt(index).interfaces;
    if (canonical(row.interfaces) !== canonical(interfaces)) problems.push(`${address}: interfaces ${canonical(row.interfaces)}, expected ${canonical(interfaces)}`);
    if (row.domain !== null) problems.push(`${address}: domain ${String(row.domain)}, expected null`);
  }
  return problems;
}
