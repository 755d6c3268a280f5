import { registerSecret } from '../core/secret-scope.js';
import { issuesToError } from './issues.js';
import type { Pipeline } from './pipeline.js';
import { apiKeyIn, resolvePipeline, type LoadOptions, type PipelineOverrides } from './resolve.js';
import { pipelineFileSchema } from './schema.js';
import { YamlSource } from './yaml-source.js';

/**
 * Reads, validates and resolves a pipeline file. Every problem is a ConfigError (exit code 2) of one
 * line naming the file, line and column, what was expected, what was got and the fix.
 */
export function loadPipeline(
  path: string,
  overrides: PipelineOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  options: LoadOptions = {},
): Pipeline {
  return fromSource(YamlSource.read(path), overrides, env, options);
}

/** `loadPipeline` for text in hand; `file` names it in messages. */
export function parsePipeline(
  text: string,
  file: string,
  overrides: PipelineOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  options: LoadOptions = {},
): Pipeline {
  return fromSource(YamlSource.parse(text, file), overrides, env, options);
}

function fromSource(source: YamlSource, overrides: PipelineOverrides, env: NodeJS.ProcessEnv, options: LoadOptions): Pipeline {
  // Known before validation, so that no message about the file (a key pasted in the wrong place) shows the key.
  const keyEnv = (source.data as { api_key_env?: unknown } | null | undefined)?.api_key_env;
  if (typeof keyEnv === 'string') registerSecret(apiKeyIn(env, keyEnv));
  const parsed = pipelineFileSchema.safeParse(source.data, { reportInput: true });
  if (!parsed.success) throw issuesToError(parsed.error.issues, source);
  return resolvePipeline(parsed.data, source, overrides, env, options);
}
