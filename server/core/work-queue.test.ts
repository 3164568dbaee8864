import { describe, expect, it } from 'vitest';
import { ServiceUnavailable, TooManyRequests } from './errors.ts';
import { WorkQueue } from './work-queue.ts';

/** A job that runs until released, recording how many jobs of the queue ran alongside it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('WorkQueue', () => {
  it('never runs more than its concurrency, starts waiting jobs first come first served, and reaches the bound', async () => {
    const q = new WorkQueue(2);
    const gates = Array.from({ length: 5 }, gate);
    const order: number[] = [];
    let seenMax = 0;
    const results = gates.map((g, i) =>
      q.run(async () => {
        order.push(i);
        seenMax = Math.max(seenMax, q.active);
        await g.opened;
        return i * 10;
      }),
    );
    await tick();
    expect([q.active, q.pending, order]).toEqual([2, 3, [0, 1]]);
    gates[1].open();
    await tick();
    expect([q.active, q.pending, order]).toEqual([2, 2, [0, 1, 2]]);
    for (const g of gates) g.open();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect([q.active, q.pending, q.peak, q.started, seenMax]).toEqual([0, 0, 2, 5, 2]);
  });

  it('frees the slot of a job that fails, and passes its error on', async () => {
    const q = new WorkQueue(1);
    const failed = q.run(async () => {
      throw new Error('bad pixels');
    });
    const next = q.run(async () => 'ran');
    await expect(failed).rejects.toThrow('bad pixels');
    expect(await next).toBe('ran');
    expect([q.active, q.pending]).toEqual([0, 0]);
  });

  it('refuses a job with 503 when too many are already waiting, and queues again once they drain', async () => {
    const q = new WorkQueue(1, 2);
    const g = gate();
    const held = [q.run(() => g.opened), q.run(async () => 1), q.run(async () => 2)];
    await tick();
    const refused = await q.run(async () => 3).catch((e) => e);
    expect(refused).toBeInstanceOf(ServiceUnavailable);
    expect(refused.statusCode).toBe(503);
    g.open();
    await Promise.all(held);
    expect(await q.run(async () => 4)).toBe(4);
  });

  it('refuses an owner’s jobs past its own waiting places with 429, and still queues other owners’ and ownerless jobs', async () => {
    const q = new WorkQueue(1, 6, 2);
    const g = gate();
    const held = [q.run(() => g.opened, 'flooder'), q.run(async () => 'f1', 'flooder'), q.run(async () => 'f2', 'flooder')];
    await tick();
    const refused = await Promise.race([q.run(async () => 'f3', 'flooder').catch((e) => e), tick().then(() => 'queued')]);
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect([refused.statusCode, refused.code, refused.params]).toEqual([429, 'upload.too_many_waiting', { max: 2, retryAfter: 5 }]);
    // the global bound still has places for everyone else: another account, and jobs of no account past two
    const others = [q.run(async () => 'v', 'victim'), q.run(async () => 'n1'), q.run(async () => 'n2'), q.run(async () => 'n3')];
    await tick();
    expect(q.pending).toBe(6);
    expect(await q.run(async () => 'w', 'other').catch((e) => e)).toBeInstanceOf(ServiceUnavailable); // now the queue is full
    g.open();
    expect(await Promise.all([...held, ...others])).toEqual([undefined, 'f1', 'f2', 'v', 'n1', 'n2', 'n3']);
    // once its jobs have run, the owner queues again
    const g2 = gate();
    const again = [q.run(() => g2.opened, 'flooder'), q.run(async () => 'f4', 'flooder')];
    await tick();
    expect(q.pending).toBe(1);
    g2.open();
    expect((await Promise.all(again))[1]).toBe('f4');
  });

  it('gives turns by owner: another owner’s job waits for one job of a burst, not for the whole burst', async () => {
    const q = new WorkQueue(2);
    const order: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const job = (name: string, owner: string) => {
      const g = gate();
      gates.set(name, g);
      return q.run(async () => {
        order.push(name);
        await g.opened;
      }, owner);
    };
    const all = [...Array.from({ length: 6 }, (_, i) => job(`a${i}`, 'flooder')), job('v', 'victim'), job('a6', 'flooder'), job('w', 'other')];
    await tick();
    expect([order, q.pending]).toEqual([['a0', 'a1'], 7]);
    gates.get('a0')!.open();
    await tick();
    // the flooder holds a slot still: the victim, waiting since after five of its jobs, goes first
    expect(order).toEqual(['a0', 'a1', 'v']);
    gates.get('a1')!.open();
    await tick();
    expect(order).toEqual(['a0', 'a1', 'v', 'w']);
    for (const name of ['v', 'w', 'a2', 'a3', 'a4', 'a5', 'a6']) {
      gates.get(name)?.open();
      await tick();
    }
    await Promise.all(all);
    // each owner's own jobs keep their order
    expect(order).toEqual(['a0', 'a1', 'v', 'w', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect([q.active, q.pending, q.peak]).toEqual([0, 0, 2]);
  });

  it('refuses a concurrency that is not a positive integer', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) expect(() => new WorkQueue(n)).toThrow(/positive integer/);
  });
});
