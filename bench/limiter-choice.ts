/**
 * Which library should hold the per-network request rate: p-queue or bottleneck?
 * Schedules N fake requests (latency 50–400 ms, deterministic) at R rps with C in flight, pauses the
 * queue for 1 s halfway (as on a 429), and reports per configuration: achieved rps, the most starts
 * seen in any sliding 1 s window (what the server counts), the smallest gap between two starts and
 * the number of starts during the pause. Run:
 *   npx tsc -p . --outDir .scratch/build && node .scratch/build/bench/limiter-choice.js
 */
import Bottleneck from 'bottleneck';
import PQueue from 'p-queue';

interface Scenario {
  readonly n: number;
  readonly rps: number;
  readonly concurrency: number;
}

interface Candidate {
  readonly name: string;
  readonly make: (s: Scenario) => {
    readonly schedule: (fn: () => Promise<void>) => Promise<void>;
    readonly pause: () => void;
    readonly resume: () => void;
    readonly close: () => Promise<void>;
  };
}

const PAUSE_MS = 1000;

const candidates: readonly Candidate[] = [
  {
    name: 'p-queue intervalCap=R/1000ms',
    make: ({ rps, concurrency }) => queueOf(new PQueue({ concurrency, intervalCap: rps, interval: 1000 })),
  },
  {
    name: 'p-queue intervalCap=R/1000ms strict',
    make: ({ rps, concurrency }) =>
      queueOf(new PQueue({ concurrency, intervalCap: rps, interval: 1000, strict: true })),
  },
  {
    name: 'p-queue intervalCap=1/(1000/R)ms',
    make: ({ rps, concurrency }) => queueOf(new PQueue({ concurrency, intervalCap: 1, interval: 1000 / rps })),
  },
  {
    name: 'p-queue intervalCap=1/(1000/R)ms strict',
    make: ({ rps, concurrency }) => queueOf(new PQueue({ concurrency, intervalCap: 1, interval: 1000 / rps, strict: true })),
  },
  {
    name: 'bottleneck minTime=1000/R',
    make: ({ rps, concurrency }) => bottleneckOf(new Bottleneck({ maxConcurrent: concurrency, minTime: 1000 / rps })),
  },
  {
    name: 'bottleneck reservoir=R/1000ms',
    make: ({ rps, concurrency }) =>
      bottleneckOf(
        new Bottleneck({
          maxConcurrent: concurrency,
          reservoir: rps,
          reservoirRefreshAmount: rps,
          reservoirRefreshInterval: 1000,
        }),
      ),
  },
];

function queueOf(q: PQueue): ReturnType<Candidate['make']> {
  return {
    schedule: (fn) => q.add(fn),
    pause: () => q.pause(),
    resume: () => void q.start(),
    close: () => q.onIdle(),
  };
}

function bottleneckOf(b: Bottleneck): ReturnType<Candidate['make']> {
  return {
    schedule: (fn) => b.schedule(fn),
    pause: () => void b.updateSettings({ reservoir: 0 }),
    resume: () => void b.updateSettings({ reservoir: null }),
    close: () => b.stop({ dropWaitingJobs: false }),
  };
}

async function measure(c: Candidate, s: Scenario): Promise<string> {
  const limiter = c.make(s);
  const starts: number[] = [];
  const t0 = performance.now();
  let pausedFrom = Number.POSITIVE_INFINITY;
  let pausedTo = Number.POSITIVE_INFINITY;
  const jobs: Promise<void>[] = [];
  for (let i = 0; i < s.n; i++) {
    jobs.push(
      limiter.schedule(async () => {
        starts.push(performance.now() - t0);
        if (starts.length === Math.floor(s.n / 2)) {
          limiter.pause();
          pausedFrom = performance.now() - t0;
          pausedTo = pausedFrom + PAUSE_MS;
          setTimeout(() => limiter.resume(), PAUSE_MS);
        }
        await sleep(50 + ((i * 7919) % 351));
      }),
    );
  }
  await Promise.all(jobs);
  await limiter.close();

  const first = starts[0] ?? 0;
  const last = starts.at(-1) ?? 0;
  const achieved = ((s.n - 1) / (last - first - PAUSE_MS)) * 1000;
  let maxPerSecond = 0;
  let minGap = Number.POSITIVE_INFINITY;
  for (let i = 0, j = 0; i < starts.length; i++) {
    const at = starts[i] ?? 0;
    while ((starts[j] ?? 0) <= at - 1000) j++;
    maxPerSecond = Math.max(maxPerSecond, i - j + 1);
    if (i > 0) minGap = Math.min(minGap, at - (starts[i - 1] ?? 0));
  }
  const duringPause = starts.filter((t) => t > pausedFrom + 1 && t < pausedTo - 1).length;
  return [
    c.name.padEnd(40),
    `rps ${achieved.toFixed(2).padStart(7)}`,
    `max/1s ${String(maxPerSecond).padStart(4)}`,
    `min gap ${minGap.toFixed(1).padStart(6)} ms`,
    `starts in pause ${duringPause}`,
  ].join('  ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const scenarios: readonly Scenario[] = [
  { n: 100, rps: 10, concurrency: 4 },
  { n: 250, rps: 25, concurrency: 8 },
  { n: 500, rps: 100, concurrency: 32 },
];

for (const s of scenarios) {
  console.log(`\nN=${s.n} R=${s.rps} rps C=${s.concurrency} (pause ${PAUSE_MS} ms halfway)`);
  for (const c of candidates) console.log(await measure(c, s));
}
