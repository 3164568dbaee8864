import { isDeepStrictEqual } from 'node:util';
import { clone, step, type Op, type World } from './model.ts';
import { answerMatches, type Answer } from './http.ts';
import { modelView, type View } from './views.ts';

// Operations sent at the same moment from several processes are correct when some serial order of
// them, run through the model, predicts every answer the system gave (status, wallet balance,
// count) and ends in exactly the state found in the database. explain() searches the orders
// depth-first, dropping an order as soon as one answer differs from the model's.

export interface Explanation {
  order: number[];
  world: World;
}

export function explain(start: World, ops: Op[], answers: Answer[], observed: View): Explanation | null {
  const search = (w: World, left: number[], order: number[]): Explanation | null => {
    if (!left.length) return isDeepStrictEqual(modelView(w), observed) ? { order, world: w } : null;
    for (const i of left) {
      const next = clone(w);
      if (!answerMatches(step(next, ops[i]), answers[i])) continue;
      const found = search(
        next,
        left.filter((j) => j !== i),
        [...order, i],
      );
      if (found) return found;
    }
    return null;
  };
  return search(
    start,
    ops.map((_, i) => i),
    [],
  );
}

/** Every serial order's answers and end state, for a failure message (few ops: at most 6! orders). */
export function possibleOutcomes(start: World, ops: Op[]): { order: number[]; statuses: number[] }[] {
  const out: { order: number[]; statuses: number[] }[] = [];
  const seen = new Set<string>();
  const walk = (w: World, left: number[], order: number[], statuses: number[]) => {
    if (!left.length) {
      const byOp = order.map((_, k) => statuses[order.indexOf(k)]);
      const key = byOp.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ order, statuses: byOp });
      }
      return;
    }
    for (const i of left) {
      const next = clone(w);
      const p = step(next, ops[i]);
      walk(
        next,
        left.filter((j) => j !== i),
        [...order, i],
        [...statuses, p.status],
      );
    }
  };
  walk(
    start,
    ops.map((_, i) => i),
    [],
    [],
  );
  return out;
}
