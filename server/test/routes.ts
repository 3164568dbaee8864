import type { App } from '../app.ts';

/**
 * Every "METHOD /pattern" the app registers, read from Fastify's route tree (printRoutes prints
 * the radix tree: a route's pattern is the concatenation of its ancestors' labels). HEAD twins of
 * GET routes (exposeHeadRoutes) are left out unless `withHead` is set. Callers should check the
 * reading against `app.hasRoute`, so a misread cannot hide a route.
 */
export function registeredRoutes(app: App, opts: { withHead?: boolean } = {}): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const label = /^(.*?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?$/.exec(m[2])!;
    stack.length = depth;
    stack[depth] = label[1];
    if (label[2]) for (const method of label[2].split(', ')) found.add(`${method} ${stack.join('')}`);
  }
  const all = [...found];
  return (opts.withHead ? all : all.filter((r) => !(r.startsWith('HEAD ') && found.has(`GET ${r.slice(5)}`)))).sort();
}

export function splitRoute(route: string): { method: string; url: string } {
  const i = route.indexOf(' ');
  return { method: route.slice(0, i), url: route.slice(i + 1) };
}
