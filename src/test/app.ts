import { vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from './server';
import { setAgeConfirmed } from '../components/public/ageConfirmation';

// What rendering the whole <App /> needs in jsdom: past the age gate, a socket that never
// connects (the tests drive the REST answers only), and the page-view beacon answered.

class QuietWebSocket {
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  url: string;
  constructor(url: string) {
    this.url = url;
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

/** Call in beforeEach (after it, a test's own server.use still takes precedence). */
export function appTestSetup(): void {
  setAgeConfirmed(true);
  vi.stubGlobal('WebSocket', QuietWebSocket);
  server.use(http.post('/api/analytics/pageview', () => new HttpResponse(null, { status: 204 })));
}

/** Call in afterEach. */
export function appTestTeardown(): void {
  setAgeConfirmed(false);
  vi.unstubAllGlobals();
}
