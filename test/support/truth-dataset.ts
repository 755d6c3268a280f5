/** The devnet truth dataset of a stream: every stream's truth is the dataset of its own name. */
import type { AnyStream } from '../../src/core/stream.js';
import { TRUTH_DATASETS, type TruthDataset } from '../../src/devnet/truth.js';

export function truthDatasetOf(stream: AnyStream): TruthDataset {
  const dataset = TRUTH_DATASETS.find((name) => name === stream.name);
  if (dataset === undefined) throw new Error(`the devnet has no truth dataset ${stream.name}: add it to TRUTH_DATASETS (src/devnet/defaults.ts) and truthRows`);
  return dataset;
}
