/**
 * Commits the pages of a run one group at a time (group commit): while a commit runs, the pages
 * that become ready wait, and the next commit takes all of them in one atomic unit. A page never
 * waits for others that are not there yet, so a run that fetches slower than it commits still
 * commits page by page; a run that fetches faster pays a commit's fixed cost (transaction, one
 * statement per table, a Parquet file per table and day) once per group instead of once per page.
 *
 * A failed commit ends the committer: every page waiting or submitted later is rejected with the
 * same failure, unprepared. A later group's checkpoint covers the failed group's positions (they
 * advance in submission order), so committing it would publish a range whose rows were never stored.
 */
import type { StreamCommit } from '../load/sink.js';

interface Waiting {
  /** Builds the page's commit when its group forms, in submission order (checkpoints advance here). */
  readonly prepare: () => StreamCommit;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommitter {
  readonly #commitAll: (commits: readonly StreamCommit[]) => Promise<void>;
  readonly #maxGroup: number;
  readonly #waiting: Waiting[] = [];
  #draining: Promise<void> | undefined;
  #failure: { readonly error: unknown } | undefined;

  /** `commitAll` makes a group durable atomically; at most `maxGroup` commits go in one. */
  constructor(commitAll: (commits: readonly StreamCommit[]) => Promise<void>, maxGroup: number) {
    this.#commitAll = commitAll;
    this.#maxGroup = maxGroup;
  }

  /** Resolves once the commit `prepare` builds is durable; rejects with the first failed group's failure. */
  submit(prepare: () => StreamCommit): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ prepare, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  /** Settles once nothing waits or commits. */
  async idle(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    // Let the pages that are ready in this turn join the first group.
    await Promise.resolve();
    while (this.#waiting.length > 0) {
      const group = this.#waiting.splice(0, this.#maxGroup);
      try {
        await this.#commitAll(group.map((page) => page.prepare()));
        for (const page of group) page.resolve();
      } catch (error) {
        this.#failure = { error };
        for (const page of [...group, ...this.#waiting.splice(0)]) page.reject(error);
      }
    }
    this.#draining = undefined;
  }
}
