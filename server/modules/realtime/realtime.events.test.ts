import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientEvents, serverEvents } from '../../../contract/events.ts';
import { clientEventHandlers } from './realtime.socket.ts';

// The socket's events are declared once, in contract/events.ts, and both sides are typed from it:
// an unknown event or a wrong payload does not compile. What types cannot see is whether anyone
// is at the other end. This test reads the product's sources (tests left out) and fails when an
// event is sent but nothing on the other side handles it, or handled but never sent, or declared
// and used by neither side.

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Server events declared before their sender exists. Keep this list short and each entry
 * explained; the test fails once a listed event gets a sender, so it cannot go stale.
 * (None today: invoiceStatusUpdate, the last one, is sent by the payments module.)
 */
const PENDING_SENDER = new Set<string>([]);

/**
 * Where an event's name reaches a function that sends or handles it, and which argument it is.
 * The typed API itself forwards an `event` parameter in these files; everywhere else the name must
 * be a string literal, or this test could not see it.
 */
const SERVER_SENDS = { sendToUser: 1, broadcast: 0, sendEvent: 1 };
const CLIENT_HANDLERS = { onSocketEvent: 0 };
const CLIENT_SENDS = { sendSocketMessage: 0, encodeSocketMessage: 0 };
const FORWARDERS = new Set(['server/core/realtime.ts', 'src/api/socket.ts', 'src/state/socket.ts']);

interface Source {
  file: string;
  text: string;
}
interface Call {
  where: string;
  fn: string;
  /** The event's name when the argument is a string literal, else null. */
  event: string | null;
  arg: string;
  file: string;
}

/** The product's .ts/.tsx files under `dir`: no tests, test kits or test folders. */
function sources(dir: string): Source[] {
  const out: Source[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$|testkit/.test(entry.name)) continue;
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (file.split('/').includes('test')) continue;
    out.push({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') });
  }
  return out;
}

/** Blanks out comments, keeping line numbers (a call named in a comment is not a call). */
function withoutComments(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[\s;{}])\/\/.*$/gm, (m, lead: string) => lead + blank(m.slice(lead.length)));
}

/** The top-level arguments of the call whose '(' is at `open`, as written. */
function argsAt(text: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      depth--;
      if (depth === 0) {
        args.push(text.slice(start, i).trim());
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

/** Every call of the given functions (a definition, `fn<E …>(`, is not a call). */
function findCalls(files: Source[], fns: Record<string, number>): Call[] {
  const out: Call[] = [];
  const re = new RegExp(`\\b(${Object.keys(fns).join('|')})\\s*\\(`, 'g');
  for (const { file, text } of files) {
    const code = withoutComments(text);
    for (const m of code.matchAll(re)) {
      const before = code.slice(Math.max(0, m.index - 9), m.index);
      if (/function\s*$/.test(before)) continue;
      const fn = m[1];
      const arg = argsAt(code, m.index + m[0].length - 1)[fns[fn]] ?? '';
      const literal = /^(['"])(\w+)\1$/.exec(arg);
      const line = code.slice(0, m.index).split('\n').length;
      out.push({ where: `${file}:${line}`, fn, event: literal ? literal[2] : null, arg, file });
    }
  }
  return out;
}

const names = (calls: Call[]) => new Set(calls.flatMap((c) => (c.event ? [c.event] : [])));
const minus = (a: Iterable<string>, b: Set<string>) => [...new Set(a)].filter((x) => !b.has(x)).sort();
const sitesOf = (calls: Call[], events: string[]) =>
  events.map(
    (e) =>
      `${e} (${calls
        .filter((c) => c.event === e)
        .map((c) => c.where)
        .join(', ')})`,
  );

const serverFiles = sources('server');
const clientFiles = sources('src');
const serverSends = findCalls(serverFiles, SERVER_SENDS);
const clientHandlers = findCalls(clientFiles, CLIENT_HANDLERS);
const clientSends = findCalls(clientFiles, CLIENT_SENDS);

describe('the socket events', () => {
  it('the source reader finds calls, their event argument and nothing in comments or definitions', () => {
    const text = [
      '// hub.sendToUser(x, "inAComment", {})',
      'export function sendEvent<E extends ServerEvent>(socket: WebSocket, event: E) {}',
      "this.deps.hub.sendToUser(pick(a, b), 'first', { adId: f(1, [2]), text: 'a, b' });",
      'for (const c of changed) hub.sendToUser(c.ownerId,',
      "  'second', { status: c.status });",
      'hub.broadcast(`templ`, null); sendEvent(s, eventName, {});',
    ].join('\n');
    const calls = findCalls([{ file: 'x.ts', text }], SERVER_SENDS);
    expect(calls.map((c) => [c.where, c.fn, c.event, c.arg])).toEqual([
      ['x.ts:3', 'sendToUser', 'first', "'first'"],
      ['x.ts:4', 'sendToUser', 'second', "'second'"],
      ['x.ts:6', 'broadcast', null, '`templ`'],
      ['x.ts:6', 'sendEvent', null, 'eventName'],
    ]);
  });

  it('are named literally wherever they are sent or handled', () => {
    const unseen = [...serverSends, ...clientHandlers, ...clientSends]
      .filter((c) => c.event === null && !(FORWARDERS.has(c.file) && c.arg === 'event'))
      .map((c) => `${c.where} ${c.fn}(… ${c.arg} …)`);
    expect(unseen).toEqual([]);
  });

  describe('server → client', () => {
    const declared = new Set(Object.keys(serverEvents));
    const sent = names(serverSends);
    const handled = names(clientHandlers);

    it('are sent and handled only as declared in contract/events.ts', () => {
      expect(sitesOf(serverSends, minus(sent, declared)), 'sent, not declared').toEqual([]);
      expect(sitesOf(clientHandlers, minus(handled, declared)), 'handled, not declared').toEqual([]);
    });

    it('each event sent by the server is handled by the client', () => {
      expect(sitesOf(serverSends, minus(sent, handled)), 'sent but no client code handles it').toEqual([]);
    });

    it('each event the client handles is sent by the server (or its sender is pending, and listed)', () => {
      expect(sitesOf(clientHandlers, minus(handled, new Set([...sent, ...PENDING_SENDER]))), 'handled but never sent').toEqual([]);
    });

    it('each declared event has a sender (or a pending one) and a handler', () => {
      expect(minus(declared, new Set([...sent, ...PENDING_SENDER])), 'declared, never sent').toEqual([]);
      expect(minus(declared, handled), 'declared, never handled').toEqual([]);
    });

    it('the pending list holds only declared events that are still without a sender', () => {
      expect(
        sitesOf(
          serverSends,
          [...PENDING_SENDER].filter((e) => sent.has(e)),
        ),
        'has a sender now: remove it from PENDING_SENDER',
      ).toEqual([]);
      expect(minus(PENDING_SENDER, declared), 'pending but not declared').toEqual([]);
    });

    it('the server sends the ones it does today from real code paths', () => {
      // Guards the reader itself: if it stopped finding sends, every other check here would pass empty.
      expect(serverSends.filter((c) => c.event === 'adStatusUpdate').map((c) => c.file)).toEqual(
        expect.arrayContaining(['server/modules/ads/ads.service.ts', 'server/modules/ads/ads.expiry.ts']),
      );
      expect(serverSends.filter((c) => c.event === 'privateMessage').map((c) => c.file)).toEqual(['server/modules/realtime/realtime.socket.ts']);
    });
  });

  describe('client → server', () => {
    const declared = new Set(Object.keys(clientEvents));
    const sent = names(clientSends);

    it('each event the client sends is declared, and each declared one is sent', () => {
      expect(sitesOf(clientSends, minus(sent, declared)), 'sent, not declared').toEqual([]);
      expect(minus(declared, sent), 'declared, never sent by the client').toEqual([]);
    });

    it('the server has a handler for each declared event, and for nothing else', () => {
      expect(Object.keys(clientEventHandlers).sort()).toEqual([...declared].sort());
    });
  });
});
