import { describe, expect, it } from 'vitest';
import { makeRng } from './bench-text.ts';
import { Histogram, ResponseReader, adWords, apportion, buildSearches, weightedOrder, weightedPicker, zipfWeights } from './bench-lib.ts';

describe('bench traffic model', () => {
  it('Zipf(1) over 20,000 ranks: rank 1 takes ~9.3 %, the top 100 ~48 %, and rank r ∝ 1/r', () => {
    const n = 20_000;
    const pick = weightedPicker(zipfWeights(n, 1));
    const rand = makeRng(7);
    const counts = new Uint32Array(n);
    const draws = 400_000;
    for (let i = 0; i < draws; i++) counts[pick(rand)]++;
    const harmonic = Array.from({ length: n }, (_, r) => 1 / (r + 1)).reduce((a, b) => a + b, 0);
    expect(counts[0] / draws).toBeCloseTo(1 / harmonic, 2);
    const top100 = counts.slice(0, 100).reduce((a, b) => a + b, 0) / draws;
    expect(top100).toBeGreaterThan(0.46);
    expect(top100).toBeLessThan(0.5);
    expect(counts[0] / counts[9]).toBeGreaterThan(8.5);
    expect(counts[0] / counts[9]).toBeLessThan(11.5);
    // Zipf(0) is uniform.
    expect(new Set(zipfWeights(5, 0))).toEqual(new Set([1]));
  });

  it('weighted picking follows the weights and never picks a zero weight', () => {
    const pick = weightedPicker([60, 0, 25, 15]);
    const rand = makeRng(3);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 100_000; i++) counts[pick(rand)]++;
    expect(counts[1]).toBe(0);
    expect(counts[0] / 100_000).toBeCloseTo(0.6, 2);
    expect(counts[2] / 100_000).toBeCloseTo(0.25, 2);
    expect(counts[3] / 100_000).toBeCloseTo(0.15, 2);
    expect(() => weightedPicker([0, 0])).toThrow();
  });

  it('a weighted order has every positive index once, heavy ones early', () => {
    const weights = [1, 0, 100, 1, 1, 50];
    const firsts = new Map<number, number>();
    for (let seed = 1; seed <= 500; seed++) {
      const order = weightedOrder(weights, makeRng(seed));
      expect([...order].sort()).toEqual([0, 2, 3, 4, 5]);
      firsts.set(order[0], (firsts.get(order[0]) ?? 0) + 1);
    }
    // P(first = 2) = 100 / 153
    expect(firsts.get(2)! / 500).toBeCloseTo(100 / 153, 1);
  });

  it('apportions a total by weight within caps, exactly', () => {
    expect(apportion([3, 1], 8)).toEqual([3, 1]); // capped by the weights themselves (the counts)
    expect(apportion([300, 100], 8)).toEqual([6, 2]);
    expect(apportion([1, 1, 1], 10, [100, 100, 100]).reduce((a, b) => a + b)).toBe(10);
    // What a capped part cannot take goes to the others.
    expect(apportion([1000, 1, 1], 100, [10, 100, 100])).toEqual([10, 45, 45]);
  });
});

describe('bench searches', () => {
  const ads = [
    { title: 'Elegant companion downtown', description: 'Discreet, punctual and always well dressed.', stateSlug: 'texas' },
    { title: 'Sweet blonde tonight', description: 'Warm smile and a calm manner. My schedul…', stateSlug: 'ohio' },
  ];

  it('takes the words a visitor types, without the stump of a cut description', () => {
    expect(adWords(ads[1])).toEqual(['sweet', 'blonde', 'tonight', 'warm', 'smile', 'and', 'calm', 'manner']);
  });

  it('builds distinct searches: single words, two words of one ad in order, a word within its state', () => {
    const out = buildSearches(ads, 60, makeRng(1));
    expect(out).toHaveLength(60);
    expect(new Set(out.map((s) => `${s.query}|${s.state ?? ''}`)).size).toBe(60);
    const words0 = adWords(ads[0]);
    const words1 = adWords(ads[1]);
    for (const s of out) {
      const parts = s.query.split(' ');
      if (s.state) {
        expect(parts).toHaveLength(1);
        expect((s.state === 'texas' ? words0 : words1).includes(parts[0])).toBe(true);
      } else if (parts.length === 2) {
        const from = words0.includes(parts[0]) && words0.includes(parts[1]) ? words0 : words1;
        expect(from.indexOf(parts[0])).toBeLessThan(from.indexOf(parts[1]));
      }
    }
    // Every distinct word once (16 here, fewer than a third of 60), the rest pairs and word + state.
    expect(out.filter((s) => !s.state && !s.query.includes(' '))).toHaveLength(new Set([...words0, ...words1]).size);
    expect(buildSearches(ads, 30, makeRng(1)).filter((s) => !s.state && !s.query.includes(' '))).toHaveLength(10);
    // Two short ads cannot give 10,000 distinct searches: as many as they can.
    const many = buildSearches(ads, 10_000, makeRng(1));
    expect(many.length).toBeLessThan(10_000);
    expect(new Set(many.map((s) => `${s.query}|${s.state ?? ''}`)).size).toBe(many.length);
  });
});

describe('bench measurement', () => {
  it('a histogram gives quantiles within 1 % and adds up across processes', () => {
    const a = new Histogram();
    const b = new Histogram();
    for (let i = 1; i <= 1000; i++) (i % 2 ? a : b).record(i / 100); // 0.01 … 10 ms
    const all = new Histogram().add(a.toPairs()).add(JSON.parse(JSON.stringify(b.toPairs())) as [number, number][]);
    expect(all.count).toBe(1000);
    expect(all.quantile(0.5)).toBeGreaterThan(5 * 0.99);
    expect(all.quantile(0.5)).toBeLessThan(5 * 1.01);
    expect(all.quantile(0.99)).toBeGreaterThan(9.9 * 0.99);
    expect(all.quantile(0.99)).toBeLessThan(9.9 * 1.01);
    expect(new Histogram().quantile(0.99)).toBe(0);
  });

  it('reads keep-alive responses: Content-Length, chunked (split anywhere), no body, Connection: close', () => {
    const seen: [number, number, boolean][] = [];
    const reader = new ResponseReader((status, bytes, close) => seen.push([status, bytes, close]));
    const stream = Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' +
        'HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n4\r\nabcd\r\na;ext=1\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n' +
        'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    // Byte by byte: every boundary falls inside a packet somewhere.
    for (let i = 0; i < stream.length; i++) reader.feed(stream.subarray(i, i + 1));
    expect(seen).toEqual([
      [200, 5, false],
      [404, 14, false],
      [304, 0, false],
      [200, 0, true],
    ]);
    // All at once gives the same.
    const again: [number, number, boolean][] = [];
    new ResponseReader((s, n, c) => again.push([s, n, c])).feed(stream);
    expect(again).toEqual(seen);
    // A body that runs until the connection closes.
    const tail: number[] = [];
    const r = new ResponseReader((_s, n) => tail.push(n));
    r.feed(Buffer.from('HTTP/1.0 200 OK\r\n\r\nabc'));
    r.feed(Buffer.from('def'));
    expect(tail).toEqual([]);
    r.end();
    expect(tail).toEqual([6]);
  });
});
