import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';
import { server } from './server';
import { initTestI18n } from './i18n';
import { resetAllStores } from '../state/resource';
import { sessionStore } from '../state/session';
import { GUEST } from '../api/session';

// Node's fetch (which jsdom does not replace) refuses relative URLs; a browser resolves them
// against the page. Resolve them the same way so the app's '/api/...' calls work unchanged.
const NodeRequest = globalThis.Request;
class BrowserRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href).href : input, init);
  }
}
globalThis.Request = BrowserRequest as typeof Request;

initTestI18n();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetAllStores();
  sessionStore.session = GUEST;
  sessionStore.loaded = false;
  sessionStore.loading = false;
  sessionStore.error = null;
  window.history.replaceState(null, '', '/');
});
afterAll(() => server.close());
