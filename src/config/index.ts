export { describeOptions, type OptionRow } from './describe.js';
export { loadPipeline, parsePipeline } from './load.js';
export { Pipeline, type PipelineSettings, type PipelineStreams, type StartPoint } from './pipeline.js';
export type { LoadOptions, PipelineOverrides } from './resolve.js';
export { pipelineFileSchema, SINK_KINDS, type PipelineFile, type SinkKind } from './schema.js';
