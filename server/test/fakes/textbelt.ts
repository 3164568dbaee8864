import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';

// A local Textbelt for tests (INTEGRATIONS.md): a real HTTP server on 127.0.0.1 speaking the hosted
// service's API. POST /text (JSON or form), GET /quota/{key}, GET /status/{textId}. Every answer of
// the service is HTTP 200, refusals included ({success: false, error}); a key ending in `_test`
// validates without sending or using quota. Accepted messages get ids that are numbers and strings
// by turns (the real service sends either). Tests read what it received, set delivery statuses,
// and make it fail (HTTP 500, a body that is not JSON, no answer at all, or an answer a second late
// after doing the work: a slow service that still sends what it got).

export type Delivery = 'DELIVERED' | 'SENT' | 'SENDING' | 'FAILED' | 'UNKNOWN';

export interface ReceivedText {
  phone: string;
  message: string;
  key: string;
  /** What the fake answered. */
  answer: Record<string, unknown>;
}

export type Failure = 'http500' | 'not-json' | 'hang' | 'slow';

export interface FakeTextbelt {
  url: string;
  /** Every POST /text, in order (refused ones too). */
  readonly received: ReceivedText[];
  /** Every request as "METHOD /path". */
  readonly requests: string[];
  /** Keys the fake knows, and their quota (a `<key>_test` key is valid when `<key>` is). */
  readonly quota: Map<string, number>;
  /** Where a sent message is (by its textId as text); new messages start as SENDING. */
  setStatus(textId: string, status: Delivery): void;
  /** The next `times` requests (any route) fail this way. */
  failNext(kind: Failure, times?: number): void;
  /** The texts of messages actually sent (not refused, not `_test`) to a number. */
  textsTo(phone: string): string[];
  stop(): Promise<void>;
}

const digitsOf = (phone: string) => /^(?:\+1)?(\d{10})$/.exec(phone.replace(/[\s().-]/g, ''))?.[1] ?? null;

export async function startFakeTextbelt(opts: { keys?: Record<string, number> } = {}): Promise<FakeTextbelt> {
  const app = Fastify({ logger: false });
  const quota = new Map(Object.entries(opts.keys ?? {}));
  const received: ReceivedText[] = [];
  const requests: string[] = [];
  const statuses = new Map<string, Delivery>();
  const failures: Failure[] = [];
  const hanging = new Set<() => void>();
  const slow = new Set<string>();
  let seq = 1000;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.addHook('onRequest', async (request, reply) => {
    requests.push(`${request.method} ${request.url}`);
    const failure = failures.shift();
    if (failure === 'http500') return reply.code(500).type('text/plain').send('Internal Server Error');
    if (failure === 'not-json') return reply.code(200).type('text/html').send('<html><body>Maintenance</body></html>');
    if (failure === 'hang') {
      await new Promise<void>((resolve) => hanging.add(resolve));
      return reply.code(503).send('gone');
    }
    if (failure === 'slow') slow.add(request.id);
  });
  // A slow answer: the route has done its work (a text is sent, quota used), the answer comes late.
  app.addHook('onSend', async (request) => {
    if (slow.delete(request.id)) await new Promise((r) => setTimeout(r, 1000));
  });

  const baseKey = (key: string) => (key.endsWith('_test') ? key.slice(0, -'_test'.length) : key);

  app.post('/text', async (request) => {
    const b = (request.body ?? {}) as Record<string, unknown>;
    const phone = typeof b.phone === 'string' ? b.phone : '';
    const message = typeof b.message === 'string' ? b.message : '';
    const key = typeof b.key === 'string' ? b.key : '';
    const answer = ((): Record<string, unknown> => {
      if (!phone || !message || !key) return { success: false, error: 'Incomplete request: phone, message and key are required.' };
      const left = quota.get(baseKey(key));
      if (left === undefined) return { success: false, quotaRemaining: 0, error: 'Invalid API key.' };
      if (!digitsOf(phone)) return { success: false, quotaRemaining: left, error: 'Invalid phone number or bad request.' };
      if (key.endsWith('_test')) return { success: true, quotaRemaining: left }; // validated, not sent
      if (left <= 0) return { success: false, quotaRemaining: 0, error: 'Out of quota' };
      quota.set(key, left - 1);
      seq++;
      const textId = seq % 2 === 1 ? seq : `tb${seq}`; // numeric and string ids by turns
      statuses.set(String(textId), 'SENDING');
      return { success: true, quotaRemaining: left - 1, textId };
    })();
    received.push({ phone, message, key, answer });
    return answer;
  });

  app.get('/quota/:key', async (request) => {
    const left = quota.get(baseKey((request.params as { key: string }).key));
    return left === undefined ? { success: false, quotaRemaining: 0 } : { success: true, quotaRemaining: left };
  });

  app.get('/status/:textId', async (request) => ({ status: statuses.get((request.params as { textId: string }).textId) ?? 'UNKNOWN' }));

  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    requests,
    quota,
    setStatus(textId, status) {
      statuses.set(textId, status);
    },
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    textsTo(phone) {
      const digits = digitsOf(phone);
      return received.filter((r) => r.answer.success === true && 'textId' in r.answer && digitsOf(r.phone) === digits).map((r) => r.message);
    },
    async stop() {
      for (const release of hanging) release();
      await app.close();
    },
  };
}
