import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

// Preloaded into the server by scripts/bench.ts (`node --import ./scripts/bench-probe.ts
// server/main.ts`, spawned with an IPC channel), so the server's own event loop and memory are
// measured without a line of server code changing. On {probe: 'reset'} it starts a new window; on
// {probe: 'report'} it answers the window's event-loop delay (how late a 5 ms timer fires: the
// histogram's intervals minus the 5 ms), resident memory (now, the window's peak, the run's peak;
// sampled every 100 ms), the process's CPU time and its garbage collections over the window.
// Without an IPC channel (started any other way) it does nothing.

export interface ProbeReport {
  probe: 'report';
  /** Event-loop delay quantiles and maximum over the window, ms. */
  delayP50: number;
  delayP99: number;
  delayMax: number;
  samples: number;
  rss: number;
  rssPeak: number;
  rssRunPeak: number;
  /** The JavaScript heap now: in use and reserved (what of the RSS is V8's). */
  heapUsed: number;
  heapTotal: number;
  /** CPU time of the whole process (every thread, user + system) over the window, µs, and the window's length, ms. */
  cpuMicros: number;
  windowMs: number;
  /** Garbage collections over the window (perf_hooks 'gc' entries): how many, and their pauses on the main thread, ms. */
  gcMajor: number;
  gcMajorMs: number;
  gcMinor: number;
  gcMinorMs: number;
}

const send = process.send?.bind(process);
if (send) {
  const RESOLUTION_MS = 5;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let windowPeak = 0;
  let runPeak = 0;
  let cpuFrom = process.cpuUsage();
  const gc = { gcMajor: 0, gcMajorMs: 0, gcMinor: 0, gcMinorMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (e.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.gcMajor++;
        gc.gcMajorMs += e.duration;
      } else {
        gc.gcMinor++;
        gc.gcMinorMs += e.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  let windowFrom = performance.now();
  const sample = () => {
    const rss = process.memoryUsage.rss();
    windowPeak = Math.max(windowPeak, rss);
    runPeak = Math.max(runPeak, rss);
    return rss;
  };
  setInterval(sample, 100).unref();
  const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  process.on('message', (m: { probe?: string }) => {
    if (m?.probe === 'reset') {
      histogram.reset();
      windowPeak = 0;
      cpuFrom = process.cpuUsage();
      windowFrom = performance.now();
      Object.assign(gc, { gcMajor: 0, gcMajorMs: 0, gcMinor: 0, gcMinorMs: 0 });
      sample();
    } else if (m?.probe === 'report') {
      const rss = sample();
      const { heapUsed, heapTotal } = process.memoryUsage();
      const cpu = process.cpuUsage(cpuFrom);
      const report: ProbeReport = {
        probe: 'report',
        delayP50: late(histogram.percentile(50)),
        delayP99: late(histogram.percentile(99)),
        delayMax: late(histogram.max),
        samples: histogram.count,
        rss,
        rssPeak: windowPeak,
        rssRunPeak: runPeak,
        heapUsed,
        heapTotal,
        cpuMicros: cpu.user + cpu.system,
        windowMs: performance.now() - windowFrom,
        ...gc,
      };
      send(report);
    }
  });
  // The channel must not keep the server alive once it wants to exit.
  process.channel?.unref();
}
