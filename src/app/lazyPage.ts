import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PreloadablePage<P = object> = LazyExoticComponent<ComponentType<P>> & { preload(): Promise<void> };

/**
 * React.lazy that can be loaded ahead of its first render, and then renders at once: a page about
 * to be hydrated (or rendered on the server) must not suspend, or React would throw the server's
 * HTML away for that part. Once loaded, the factory hands React a thenable that resolves
 * synchronously, which React.lazy reads without suspending.
 */
export function lazyPage<P = object>(load: () => Promise<{ default: ComponentType<P> }>): PreloadablePage<P> {
  let mod: { default: ComponentType<P> } | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then((m) => {
      mod = m;
    }));
  const Page = lazy(() =>
    mod ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve(mod!) } as unknown as Promise<{ default: ComponentType<P> }>) : load(),
  );
  return Object.assign(Page, { preload });
}
