import { useEffect, useRef, useState } from 'react';
import { progress } from './progress';
import { Loading } from '../Loading';

/** NProgress-style speed: each step of the bar animates over 500 ms (seed §9). */
export const PROGRESS_SPEED_MS = 500;

/** A thin bar at the top of the page while a route loads; no spinner. Decorative for screen readers. */
export function ProgressBar() {
  const [width, setWidth] = useState(0);
  const [visible, setVisible] = useState(false);
  const trickle = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(() => {
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    const stopTrickle = () => {
      if (trickle.current) clearInterval(trickle.current);
      trickle.current = null;
    };
    const unsubscribe = progress.subscribe((active) => {
      timers.forEach(clearTimeout);
      timers.length = 0;
      if (active) {
        setVisible(true);
        setWidth(8);
        stopTrickle();
        // Creeps towards 90% while waiting, each step slower than the last.
        trickle.current = setInterval(() => setWidth((w) => Math.min(90, w + (90 - w) * 0.15)), PROGRESS_SPEED_MS);
      } else {
        stopTrickle();
        setWidth(100);
        timers.push(setTimeout(() => setVisible(false), PROGRESS_SPEED_MS));
        timers.push(setTimeout(() => setWidth(0), PROGRESS_SPEED_MS * 2));
      }
    });
    return () => {
      unsubscribe();
      stopTrickle();
      timers.forEach(clearTimeout);
    };
  }, []);

  return (
    <div
      aria-hidden="true"
      data-testid="progress-bar"
      data-active={visible}
      style={{
        position: 'fixed', top: 0, left: 0, height: 3, zIndex: 2000, pointerEvents: 'none',
        width: `${width}%`, opacity: visible ? 1 : 0, background: 'var(--rose)', boxShadow: '0 0 8px var(--rose)',
        transition: `width ${PROGRESS_SPEED_MS}ms ease, opacity ${PROGRESS_SPEED_MS}ms ease`,
      }}
    />
  );
}

/** Suspense fallback for lazy pages: the seed's 'Loading...' text, and the bar keeps running. */
export function PageLoading() {
  useEffect(() => {
    progress.start();
    return () => progress.done();
  }, []);
  return <Loading />;
}
