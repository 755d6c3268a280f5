/**
 * Devnet at scale: start `chain-etl devnet --blocks N` as a child process, time until it serves (wall
 * and the child's CPU seconds, which the machine's load does not change), fetch a few full pages, and
 * read its peak RSS (VmHWM) from /proc.
 * Usage: node .bench-build/bench/devnet-startup.js [blocks=20000]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { BENCH_KEY, type DevnetProcess } from './harness.js';

export interface DevnetStartupResult {
  readonly blocks: number;
  readonly transactions: number;
  readonly startupSeconds: number;
  /** CPU seconds (user + system) the child spent until it served. */
  readonly startupCpuSeconds: number;
  /** The machine's 1-minute load average when it served: the wall time is only comparable with it. */
  readonly loadAverage: number;
  readonly peakRssMiB: number;
  readonly pageMs: number;
}

export async function measureDevnetStartup(blocks: number): Promise<DevnetStartupResult> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/chain-etl.js', 'devnet', '--port', '0', '--blocks', String(blocks), '--keys', 'mainnet:BENCH', '--key-rps', '1000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`devnet exited with ${code} before serving`)));
  });
  const startupSeconds = (performance.now() - started) / 1000;
  const startupCpuSeconds = cpuSecondsOf(child.pid!);
  const loadAverage = loadavg()[0]!;
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(firstLine)?.[0];
  const transactions = Number(/(\d+) transactions/.exec(firstLine)?.[1]);
  if (url === undefined) throw new Error(`unexpected first line: ${firstLine}`);
  const pageMs = await fullPageMs(url, 'BENCH');
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakKiB = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { blocks, transactions, startupSeconds, startupCpuSeconds, loadAverage, peakRssMiB: Math.round(peakKiB / 1024), pageMs: Math.round(pageMs) };
}

/**
 * The same figures of a bench devnet (harness.ts) that has just become ready, before it serves
 * anything else: the memory suite's devnet, when it is the chain this benchmark would start.
 */
export async function startupOf(devnet: DevnetProcess, url: string): Promise<DevnetStartupResult> {
  const loadAverage = loadavg()[0]!;
  const atReady = await devnet.usage();
  const pageMs = await fullPageMs(url, BENCH_KEY);
  const { maxRssKiB } = await devnet.usage();
  return {
    blocks: devnet.info.blocks,
    transactions: devnet.info.transactions,
    startupSeconds: devnet.info.startupSeconds,
    startupCpuSeconds: atReady.cpuSeconds,
    loadAverage,
    peakRssMiB: Math.round(maxRssKiB / 1024),
    pageMs: Math.round(pageMs),
  };
}

/** Milliseconds per full page of transactions from the start of the chain, over 5 pages. */
async function fullPageMs(url: string, key: string): Promise<number> {
  const started = performance.now();
  const pages = 5;
  let startLt = '0';
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${url}/api/v3/transactions?sort=asc&limit=1000&start_lt=${startLt}`, { headers: { 'X-API-Key': key } });
    const body = (await response.json()) as { transactions: { lt: string }[] };
    startLt = body.transactions.at(-1)!.lt;
  }
  return (performance.now() - started) / pages;
}

/** utime + stime of a process, from /proc/<pid>/stat (in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const blocks = Number(process.argv[2] ?? 20_000);
  measureDevnetStartup(blocks).then((result) => console.log(JSON.stringify(result)));
}
