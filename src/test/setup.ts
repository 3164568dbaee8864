import { Blob as NodeBlob, File as NodeFile } from 'node:buffer';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/react';
import { server } from './server';
import { initTestI18n } from './i18n';
import { resetAllStores } from '../state/resource';
import { clearRouteData } from '../app/routeStore';
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

// Same mismatch for uploads: fetch is Node's but FormData, File and Blob are jsdom's, which Node's
// fetch serialises as an empty "blob". A browser has one family; give the tests Node's throughout
// (its FormData class is reached through a parsed body, as Node no longer exposes it here).
const NodeFormData = (await new Response(new URLSearchParams('x=1')).formData()).constructor;
globalThis.FormData = NodeFormData as typeof FormData;
globalThis.Blob = NodeBlob as unknown as typeof Blob;
globalThis.File = NodeFile as unknown as typeof File;

const i18n = initTestI18n();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetAllStores();
  clearRouteData();
  sessionStore.session = GUEST;
  sessionStore.loaded = false;
  sessionStore.loading = false;
  sessionStore.error = null;
  sessionStore.signOutFailed = false;
  window.history.replaceState(null, '', '/');
  window.sessionStorage.clear(); // what a page keeps in its tab (the post-ad draft) is not the next test's
  if (i18n.language !== 'en') void i18n.changeLanguage('en'); // a test that switched language must not leak it
});
afterAll(() => server.close());
