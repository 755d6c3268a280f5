/** `chain-etl compact` (test/integration/compaction-suite.ts), killed once its first new generation appears; the chaos run kills it at the third. */
import { describeCompact } from './compaction-suite.js';

describeCompact({ killAt: [1] });
