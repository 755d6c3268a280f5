/**
 * `npm run build`: bundles the TypeScript sources into dist/bundle/, the code bin/chain-etl.js runs
 * (types are checked by `npm run typecheck`, tsc over the whole project; `isolatedModules` there keeps
 * every file one that esbuild compiles alone the way tsc would). One file per entry (the CLI and the
 * page worker) and a chunk per command (commands.ts imports each command only when it runs), the
 * pure-JS packages inside them: loading the sync command from ~200 module files cost about twice the
 * CPU of loading its bundle (CONTRIBUTING.md, Benchmarks). DuckDB (a native binding), pino (its
 * transports load files by path) and @ton/core (loaded on first use, through createRequire) stay
 * packages. dist/bundle/meta.json lists which modules each output file holds
 * (test/cli/module-loading.test.ts reads it).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry a hash of their content: a chunk of the previous build is not overwritten.
rmSync('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: { main: 'src/cli/main.ts', 'page-worker': 'src/run/workers/page-worker.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@duckdb/*', 'pino', '@ton/*'],
  // CommonJS packages inside an ES module bundle still call require for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});
writeFileSync('dist/bundle/meta.json', JSON.stringify(result.metafile));
