import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';
import { TextbeltClient, TextbeltUnreachable } from './textbelt.client.ts';

// The client against a real HTTP server speaking Textbelt's API (server/test/fakes/textbelt.ts).

let fake: FakeTextbelt;
let client: TextbeltClient;
beforeEach(async () => {
  fake = await startFakeTextbelt({ keys: { live_key_1234: 2 } });
  client = new TextbeltClient(`${fake.url}/`, { timeoutMs: 300 }); // a trailing slash is fine
});
afterEach(async () => fake.stop());

/** The failure as a code with its figures (what staff screens word), and its English for the log. */
async function unreachable(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TextbeltUnreachable);
  const { reason, status, seconds, systemCode, maybeDelivered, detail } = err as TextbeltUnreachable;
  return { reason, status, seconds, systemCode, maybeDelivered, detail };
}

describe('Textbelt client', () => {
  it('sends one JSON request per message and keeps numeric and string text ids as text', async () => {
    const first = await client.send('live_key_1234', '+12125550100', 'hello one');
    const second = await client.send('live_key_1234', '2125550101', 'hello two');
    expect(first).toEqual({ success: true, textId: '1001', quotaRemaining: 1 });
    expect(second).toEqual({ success: true, textId: 'tb1002', quotaRemaining: 0 });
    expect(fake.received.map((r) => [r.phone, r.message, r.key])).toEqual([
      ['+12125550100', 'hello one', 'live_key_1234'],
      ['2125550101', 'hello two', 'live_key_1234'],
    ]);
    expect(fake.requests).toEqual(['POST /text', 'POST /text']);
    // The fake answered a number, then a string: what the client saw is what it kept.
    expect(fake.received.map((r) => typeof r.answer.textId)).toEqual(['number', 'string']);
  });

  it('reads success: false answers (HTTP 200) as refusals, with Textbelt’s words and none of ours', async () => {
    expect(await client.send('live_key_1234', '+12125550100', 'a')).toMatchObject({ success: true });
    expect(await client.send('live_key_1234', '+12125550100', 'b')).toMatchObject({ success: true });
    expect(await client.send('live_key_1234', '+12125550100', 'c')).toEqual({ success: false, error: 'Out of quota', quotaRemaining: 0 });
    expect(await client.send('nobody_key', '+12125550100', 'd')).toEqual({ success: false, error: 'Invalid API key.', quotaRemaining: 0 });
    expect(await client.quota('nobody_key')).toEqual({ success: false, quotaRemaining: 0, error: null });
  });

  it('a _test key validates without sending or using quota, and gets no text id', async () => {
    expect(await client.send('live_key_1234_test', '+12125550100', 'dry run')).toEqual({ success: true, textId: null, quotaRemaining: 2 });
    expect(await client.quota('live_key_1234')).toEqual({ success: true, quotaRemaining: 2, error: null });
    expect(fake.textsTo('+12125550100')).toEqual([]);
  });

  it('asks the quota and the delivery status (an undocumented status is UNKNOWN)', async () => {
    expect(await client.quota('live_key_1234')).toEqual({ success: true, quotaRemaining: 2, error: null });
    const sent = await client.send('live_key_1234', '+12125550100', 'x');
    const textId = (sent as { textId: string }).textId;
    expect(await client.status(textId)).toBe('SENDING');
    fake.setStatus(textId, 'DELIVERED');
    expect(await client.status(textId)).toBe('DELIVERED');
    fake.setStatus(textId, 'LOST' as never);
    expect(await client.status(textId)).toBe('UNKNOWN');
    expect(await client.status('never-sent')).toBe('UNKNOWN');
    expect(fake.requests).toContain(`GET /status/${textId}`);
  });

  it('any other HTTP status, a body that is not JSON, silence or a closed port is a transport failure', async () => {
    const none = { status: null, seconds: null, systemCode: null };
    fake.failNext('http500');
    expect(await unreachable(client.send('live_key_1234', '+12125550100', 'x'))).toEqual({
      ...none,
      reason: 'http',
      status: 500,
      maybeDelivered: false,
      detail: 'HTTP 500',
    });
    fake.failNext('not-json');
    expect(await unreachable(client.quota('live_key_1234'))).toEqual({ ...none, reason: 'not_json', maybeDelivered: true, detail: 'the answer is not JSON' });
    fake.failNext('hang');
    expect(await unreachable(client.status('1001'))).toEqual({ ...none, reason: 'timeout', seconds: 0.3, maybeDelivered: true, detail: 'no answer in 0.3 s' });
    expect(fake.quota.get('live_key_1234')).toBe(2); // nothing was sent meanwhile
    const gone = fake.url;
    await fake.stop();
    fake = await startFakeTextbelt();
    expect(await unreachable(new TextbeltClient(gone).quota('k'))).toEqual({
      ...none,
      reason: 'connection',
      systemCode: 'ECONNREFUSED',
      maybeDelivered: false,
      detail: 'ECONNREFUSED',
    });
  });

  it('escapes keys and ids in paths', async () => {
    await client.quota('a/b?c');
    await client.status('../text');
    expect(fake.requests).toEqual(['GET /quota/a%2Fb%3Fc', 'GET /status/..%2Ftext']);
  });
});
