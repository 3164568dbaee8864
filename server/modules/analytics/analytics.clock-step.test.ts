import { describe, expect, it } from 'vitest';
import { HOUR_MS, ManualClock } from '../../core/clock.ts';
import { SeenViews, VIEW_WINDOW_MS } from './analytics.counting.ts';

describe('page views after the server clock was stepped back', () => {
  // A viewer's next view counts once VIEW_WINDOW_MS (30 min) of real time has passed since the one
  // counted, whatever NTP did to the wall clock meanwhile (Clock.elapsed): stepped back an hour,
  // every viewer seen before the step went uncounted for 1 h 30 min.
  it('counts a view 40 minutes (real time) after the last one, across an NTP step back of an hour', () => {
    const clock = new ManualClock('2026-11-01T05:50:00.000Z');
    const seen = new SeenViews(clock);
    expect(seen.first('203.0.113.9', '/ad/abc')).toBe(true);
    clock.advance(-HOUR_MS); // NTP steps the clock back
    clock.advance(VIEW_WINDOW_MS + 10 * 60_000); // 40 minutes of real time pass
    expect(seen.first('203.0.113.9', '/ad/abc')).toBe(true);
  });
});
