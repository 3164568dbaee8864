import { describe, expect, it } from 'vitest';
import { createResource, onReset, resetAllStores } from './resource';
import { ApiError } from '../api/client';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('createResource', () => {
  it('goes through loading to data', async () => {
    const d = deferred<number[]>();
    const r = createResource(() => d.promise);
    const p = r.load();
    expect(r.state).toMatchObject({ loading: true, error: null, data: null });
    d.resolve([1, 2]);
    expect(await p).toEqual([1, 2]);
    expect(r.state).toMatchObject({ loading: false, error: null, data: [1, 2] });
  });

  it('keeps the error message and returns null on failure', async () => {
    const r = createResource(async () => {
      throw new ApiError('No access.', 403);
    });
    expect(await r.load()).toBeNull();
    expect(r.state).toMatchObject({ loading: false, error: 'No access.', data: null });
  });

  it('lets only the latest load write (an older, slower answer is dropped)', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const r = createResource((which: 'a' | 'b') => (which === 'a' ? first.promise : second.promise));
    const pa = r.load('a');
    const pb = r.load('b');
    second.resolve('b');
    await pb;
    first.resolve('a');
    await pa;
    expect(r.state.data).toBe('b');
  });

  it('resetAllStores returns every area to its initial state and runs extra resets', async () => {
    const a = createResource(async () => 'A');
    const b = createResource(async () => {
      throw new Error('broken');
    });
    let extra = 0;
    onReset(() => extra++);
    await a.load();
    await b.load();
    const pending = deferred<string>();
    const c = createResource(() => pending.promise);
    const pc = c.load();
    resetAllStores();
    expect(a.state).toMatchObject({ loading: false, error: null, data: null });
    expect(b.state).toMatchObject({ loading: false, error: null, data: null });
    expect(extra).toBeGreaterThanOrEqual(1);
    // A load in flight at reset time must not refill the area afterwards.
    pending.resolve('late');
    await pc;
    expect(c.state).toMatchObject({ loading: false, data: null });
  });
});
