/**
 * The order `npm test` starts its files in: the longest first, so that the two workers end together
 * rather than one waiting on a long file started last. vitest orders by the durations it cached from
 * the last run; a fresh clone has none (vitest would start the largest files first, however quick),
 * so there the folders whose files wait on devnets, child processes and generated cases go first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Folders of test/ whose files take seconds each (the rest take milliseconds). */
const SLOW_FOLDERS = ['chaos', 'property', 'integration', 'secrets', 'report', 'schedules', 'badinput', 'cli'];

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = sorted.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`) !== undefined);
    if (known) return sorted;
    const slow = (file: TestSpecification): boolean => SLOW_FOLDERS.includes(relative(this.ctx.config.root, file.moduleId).split('/')[1] ?? '');
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}
