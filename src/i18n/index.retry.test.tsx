import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('i18next');
  vi.doUnmock('./errors');
  vi.resetModules();
});

describe('seed §9: translation loading', () => {
  // Seed §9: "Translation loading retries up to 5 times, initial wait 350 ms doubling each retry,
  // 10 parallel reads." i18next retries a read only when the backend answers callback(err, true)
  // (its retry flag): with null, one failed chunk load (a flaky phone connection) was never read
  // again, and the page kept raw keys or English until the visitor reloaded.
  it('a namespace whose first load fails is read again (after 350 ms), not given up at once', async () => {
    vi.resetModules();
    const actual = await vi.importActual<typeof import('i18next')>('i18next');
    const fresh = actual.createInstance();
    vi.doMock('i18next', () => ({ ...actual, default: fresh }));
    const spanishReads: number[] = [];
    vi.doMock('./errors', async () => {
      const real = await vi.importActual<typeof import('./errors')>('./errors');
      return {
        ...real,
        // The network drops the first fetch of the Spanish chunk, as a browser's import() rejects then.
        loadErrorMessages: async (lng: string) => {
          if (lng === 'es') {
            spanishReads.push(Date.now());
            if (spanishReads.length === 1) throw new TypeError('Failed to fetch dynamically imported module');
          }
          return real.loadErrorMessages(lng);
        },
      };
    });
    const { initI18n } = await import('./index');
    const i18n = initI18n('es');
    if (!i18n.isInitialized) await new Promise((r) => i18n.on('initialized', r));
    await i18n.loadNamespaces('errors');
    await new Promise((r) => setTimeout(r, 800));
    expect({ spanishReads: spanishReads.length, loaded: i18n.hasResourceBundle('es', 'errors') }).toEqual({ spanishReads: 2, loaded: true });
  });
});
