/** kill -9 of `chain-etl compact` once generation +3 appears (test/integration/compaction-suite.ts); `npm test` kills it at +1. */
import { describeCompact } from '../integration/compaction-suite.js';

describeCompact({ killAt: [3], killsOnly: true });
