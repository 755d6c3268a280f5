/** Accounts a response mentions, collected while rendering, for its address_book and metadata. */
export class Refs {
  readonly accounts = new Set<number>();

  add(account: number | null): void {
    if (account !== null) this.accounts.add(account);
  }
}
