import { afterEach, describe, expect, it } from 'vitest';
import { LoadGauge } from './load.ts';

// The event loop's load gauge (core/load.ts), on this process's real event loop.

const gauges: LoadGauge[] = [];
afterEach(() => {
  for (const g of gauges.splice(0)) g.close();
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Runs JavaScript without a pause for `ms` (a saturated loop). */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/** Waits, letting the loop run, until `check` holds (false after `ms`). */
async function becomes(check: () => boolean, ms = 2000): Promise<boolean> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) return false;
    await sleep(5);
  }
  return true;
}

describe('LoadGauge', () => {
  it('is busy after a window in which the loop ran without a pause, and not once it waits again', async () => {
    const gauge = new LoadGauge({ windowMs: 20 });
    gauges.push(gauge);
    await sleep(100); // idle windows
    expect(gauge.busy).toBe(false);
    spin(600); // the next window is at least 600 / (600 + 20) busy
    expect(await becomes(() => gauge.busy, 100)).toBe(true); // at the overdue tick, busy for a window at least
    expect(await becomes(() => !gauge.busy)).toBe(true);
  });

  it('reads its threshold: a loop four-fifths busy is busy at 0.2, not at 0.9', async () => {
    const low = new LoadGauge({ windowMs: 200, threshold: 0.2 });
    const high = new LoadGauge({ windowMs: 200, threshold: 0.9 });
    gauges.push(low, high);
    let lowSeen = false;
    let highSeen = false;
    const end = performance.now() + 1200;
    while (performance.now() < end) {
      spin(20); // ~20 ms of work in every ~25 ms: ~0.8, never above 20 / 24, and over 0.2 unless a 5 ms timer fires 80 ms late
      await sleep(5);
      lowSeen ||= low.busy;
      highSeen ||= high.busy;
    }
    expect(lowSeen).toBe(true);
    expect(highSeen).toBe(false);
  });

  it('stops sampling once closed', async () => {
    const gauge = new LoadGauge({ windowMs: 10 });
    gauge.close();
    spin(200);
    await sleep(5); // a tick still sampling would have run first (overdue) and seen the busy window
    expect(gauge.busy).toBe(false);
  });
});
