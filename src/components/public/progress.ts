// The route-change progress bar's state: a counter of pending loads (route changes and lazy pages
// waiting in Suspense). Plain listeners, no store library: this is part of the first paint.

type Listener = (pending: boolean) => void;
let pending = 0;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((l) => l(pending > 0));

export const progress = {
  start() {
    pending++;
    if (pending === 1) emit();
  },
  done() {
    if (pending === 0) return;
    pending--;
    if (pending === 0) emit();
  },
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get active() {
    return pending > 0;
  },
};
