import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';
import type { Limits } from './deps.ts';
import { assertImageHeader, imageQueue, MAX_JPEG_SCANS, MAX_WAITING_PER_ACCOUNT } from './images.ts';
import { Invalid } from './errors.ts';
import { adForm, goodFields, placeIn, postAdRaw } from '../modules/ads/ads.testkit.ts';
import { flatPng, multipart, png, pngOf } from '../modules/uploads/test-images.ts';

// Abuse of the image paths: pictures whose decoding costs far more than their size or pixel count
// says, and one account's burst of uploads against everyone else's.

/** A promise the test settles when it wants (a job that holds its queue slot until then). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});
async function app(limits: Partial<Limits> = {}) {
  ctx = await createTestApp({ limits });
  return ctx;
}

/**
 * A valid progressive JPEG of width×height whose luma AC coefficients are "refined" by `extraScans`
 * extra scans of ~60 bytes each (one Huffman code, long end-of-band runs). libjpeg walks every
 * block of the image for each scan, so decoding time grows with the number of scans, not with the
 * pixels or the file size: 10 MB (the per-photo limit) holds ~160,000 such scans.
 */
async function scanBomb(width: number, height: number, extraScans: number): Promise<Buffer> {
  const base = await sharp({ create: { width, height, channels: 3, background: '#777' } })
    .jpeg({ progressive: true, quality: 50 })
    .toBuffer();
  const body = base.subarray(0, base.length - 2); // without EOI
  const counts = Buffer.alloc(16);
  counts[0] = 1; // one code of length 1 ...
  const dhtData = Buffer.concat([Buffer.from([0x11]), counts, Buffer.from([0xe0])]); // ... AC table 1, symbol EOB14
  const dht = Buffer.concat([Buffer.from([0xff, 0xc4, 0, dhtData.length + 2]), dhtData]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  let bits = '';
  for (let i = 0; i < Math.ceil(blocks / 32767); i++) bits += '0' + '1'.repeat(14); // EOB run of 32767 blocks
  while (bits.length % 8) bits += '1';
  const entropy: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const b = parseInt(bits.slice(i, i + 8), 2);
    entropy.push(b);
    if (b === 0xff) entropy.push(0);
  }
  // SOS: one component (Y), DC table 0 / AC table 1, Ss=1 Se=63 Ah=Al=0
  const scan = Buffer.concat([Buffer.from([0xff, 0xda, 0, 8, 1, 1, 0x01, 1, 63, 0]), Buffer.from(entropy)]);
  return Buffer.concat([body, dht, ...Array<Buffer>(extraScans).fill(scan), Buffer.from([0xff, 0xd9])]);
}

/** The scans (SOS markers) a JPEG's encoder wrote, counted by libvips' own reader: none of ours. */
function sosCount(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(Buffer.from([0xff, 0xda])); i !== -1; i = b.indexOf(Buffer.from([0xff, 0xda]), i + 2)) n++;
  return n;
}

describe('image decoding cost', () => {
  // A 40 MP progressive JPEG of normal make takes ~0.35 s a decode; one of 800 scans (0.3 MB)
  // would take ~5 s, and each photo is decoded twice, holding an image-queue slot the whole time.
  // Real cameras and encoders write about a dozen scans: past MAX_JPEG_SCANS the header check
  // refuses the file before it reaches libjpeg.
  it('refuses a progressive JPEG of 40 MP with hundreds of scans quickly, with 400 upload.too_many_scans', async () => {
    const c = await app();
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const bomb = await scanBomb(6400, 6200, 800);
    expect(bomb.length).toBeLessThan(400 * 1024); // a small upload
    const before = imageQueue(c.app.deps).started;
    const t0 = performance.now();
    const res = await postAdRaw(c, user, goodFields(ny), [bomb]);
    const seconds = (performance.now() - t0) / 1000;
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'upload.file_too_many_scans', params: { field: 'photos', max: MAX_JPEG_SCANS, position: 1 } });
    expect(seconds).toBeLessThan(3);
    expect(imageQueue(c.app.deps).started).toBe(before); // refused before it took a place in the queue
  }, 60_000);

  it('counts scans up to the limit: an ordinary progressive JPEG and one of exactly the limit pass, one more is refused', async () => {
    const ordinary = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#579' } })
      .jpeg({ progressive: true })
      .toBuffer();
    expect(sosCount(ordinary)).toBeGreaterThan(5);
    expect(assertImageHeader(ordinary, 'photos')).toMatchObject({ format: 'jpeg', width: 300, height: 200 });
    const scans = sosCount(ordinary);
    expect(assertImageHeader(await scanBomb(300, 200, MAX_JPEG_SCANS - scans), 'photos').format).toBe('jpeg');
    const over = assertImageHeader.bind(null, await scanBomb(300, 200, MAX_JPEG_SCANS - scans + 1), 'photos');
    expect(over).toThrow(Invalid);
    expect(over).toThrow(/more than 100 scans/);
  });
});

describe('image decoding memory', () => {
  // The 40 MP limit bounds pixels, not bytes: a 39 MP PNG with 16-bit RGBA samples (8 bytes a
  // pixel) and Adam7 interlacing (which libspng decodes into one whole-image buffer) is ~300 KB on
  // the wire and grew the server (150 MB resident idle) by ~420 MB. The header check bounds the
  // decoded size instead, and refuses it with 413 before any decoding.
  it('refuses a 300 KB 16-bit interlaced PNG under 40 MP with 413 upload.too_heavy, without growing the server', async () => {
    const c = await app();
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const bomb = pngOf(6500, 6000, { depth: 16, colourType: 6, interlaced: true });
    expect(bomb.length).toBeLessThan(400 * 1024);
    const base = process.memoryUsage().rss;
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const res = await postAdRaw(c, user, goodFields(ny), [bomb]);
    clearInterval(timer);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'upload.file_too_heavy', params: { field: 'photos', width: 6500, height: 6000, mb: 312, max: 40, position: 1 } });
    const grewMb = Math.round((peak - base) / 1e6);
    expect(grewMb, `RSS grew by ${grewMb} MB for a ${Math.round(bomb.length / 1024)} KB photo`).toBeLessThan(200);
  }, 60_000);

  it('bounds the decoded size by bit depth, channels and interlacing, and keeps accepting ordinary PNGs', () => {
    // The check reads IHDR only: a 1×1 PNG whose header claims the size shows what it decides.
    const withSize = (b: Buffer, width: number, height: number) => {
      b.writeUInt32BE(width, 16);
      b.writeUInt32BE(height, 20);
      return b;
    };
    const check = (width: number, height: number, opts: Parameters<typeof pngOf>[2]) => () =>
      assertImageHeader(withSize(pngOf(1, 1, opts), width, height), 'photos');
    // accepted: 40 MP of 8-bit RGBA (160 MB decoded), 10 MP of interlaced RGBA (40 MB), 39 MP interlaced grey
    expect(check(8000, 5000, { depth: 8, colourType: 6, interlaced: false })()).toMatchObject({ format: 'png', width: 8000 });
    expect(check(2500, 4000, { depth: 8, colourType: 6, interlaced: true })()).toMatchObject({ format: 'png', width: 2500 });
    expect(check(6500, 6000, { depth: 8, colourType: 0, interlaced: true })()).toMatchObject({ format: 'png', width: 6500 });
    // refused: 16-bit RGBA over 20 MP, interlaced RGB over ~13 MP
    expect(check(5000, 4001, { depth: 16, colourType: 6, interlaced: false })).toThrow(/161 MB in this PNG, and at most 160 MB/);
    expect(check(4000, 4000, { depth: 8, colourType: 2, interlaced: true })).toThrow(/48 MB in this PNG, and at most 40 MB/);
  });
});

describe('one account and the shared image queue', () => {
  // The image queue (2 slots here) is shared by every account, and an account can fire many
  // uploads at once (edits have no daily limit). Turns go by account, so another account's single
  // avatar waits for one job at most, not for every job the flooder queued first.
  it('another user’s avatar is not held behind a burst of uploads from one account', async () => {
    const c = await app({ imageConcurrency: 2 });
    const flooder = await makeUser(c);
    const victim = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const first = await postAdRaw(c, flooder, goodFields(ny), [await png(32, 32)]);
    expect(first.statusCode, first.body).toBe(201);
    const adId = first.json().ad.id as string;
    // A legal photo: 39 MP (under the 40 MP limit), 38 KB.
    const photo = flatPng(6500, 6000);
    const avatar = await png(300, 300);
    const sendAvatar = () => {
      const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', contentType: 'image/png', data: avatar }]);
      return c.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: victim.cookie } });
    };
    // The victim's avatar alone, for scale.
    let t0 = performance.now();
    expect((await sendAvatar()).statusCode).toBe(200);
    const alone = (performance.now() - t0) / 1000;

    const queue = imageQueue(c.app.deps);
    const flood = Array.from({ length: 30 }, () =>
      c.app.inject({ method: 'PUT', url: `/api/ads/${adId}`, headers: { cookie: flooder.cookie }, payload: adForm(goodFields(ny), [photo], 'image/png') }),
    );
    while (queue.pending < MAX_WAITING_PER_ACCOUNT) await new Promise((r) => setTimeout(r, 5));
    t0 = performance.now();
    const res = await sendAvatar();
    const waited = (performance.now() - t0) / 1000;
    const startedBehind = queue.pending; // the flooder's jobs still waiting when the avatar is done
    const floodStatuses = (await Promise.all(flood)).map((r) => r.statusCode);
    expect(res.statusCode).toBe(200);
    // 409: edits of one ad at once conflict; 429: the flooder's uploads past its waiting places
    expect(floodStatuses.filter((s) => s !== 200 && s !== 409 && s !== 429)).toEqual([]);
    expect(alone).toBeLessThan(1);
    expect(waited, `the avatar alone took ${alone.toFixed(2)} s; behind the flood, ${waited.toFixed(1)} s`).toBeLessThan(2);
    expect(startedBehind).toBeGreaterThan(MAX_WAITING_PER_ACCOUNT / 2);
  }, 120_000);

  // Each request has one job in the queue at a time, so an account with hundreds of requests in
  // flight would hold every one of the queue's 500 waiting places, and every other account's upload
  // would be refused 503 meanwhile. Past its own MAX_WAITING_PER_ACCOUNT, its uploads are refused 429.
  it('refuses one account’s uploads past its own waiting places with 429, while another account’s avatar still gets a place', async () => {
    const c = await app({ imageConcurrency: 2 });
    const flooder = await makeUser(c);
    const victim = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const first = await postAdRaw(c, flooder, goodFields(ny), [await png(32, 32)]);
    expect(first.statusCode, first.body).toBe(201);
    const adId = first.json().ad.id as string;
    const photo = await png(48, 48);
    const queue = imageQueue(c.app.deps);
    // Both slots held (another account's long uploads, say) until the test lets them go: every upload below waits.
    const release = gate();
    const held = [queue.run(() => release.opened, 'holder'), queue.run(() => release.opened, 'holder')];
    try {
      let answered = 0;
      const flood = Array.from({ length: queue.maxWaiting + 2 }, () =>
        c.app
          .inject({ method: 'PUT', url: `/api/ads/${adId}`, headers: { cookie: flooder.cookie }, payload: adForm(goodFields(ny), [photo], 'image/png') })
          .then((r) => (answered++, r)),
      );
      const deadline = performance.now() + 60_000;
      while (queue.pending + answered < flood.length && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const flooderWaiting = queue.pending;

      const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', contentType: 'image/png', data: await png(300, 300) }]);
      let avatarAnswered = false;
      const avatar = c.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: victim.cookie } }).then((r) => {
        avatarAnswered = true;
        return r;
      });
      while (queue.pending === flooderWaiting && !avatarAnswered && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      // the flooder holds its own places only, the rest of its uploads are answered, and the avatar waits its turn (not refused)
      expect({ flooderWaiting, flooderAnswered: answered, avatarWaiting: queue.pending - flooderWaiting, avatarAnswered }).toEqual({
        flooderWaiting: MAX_WAITING_PER_ACCOUNT,
        flooderAnswered: flood.length - MAX_WAITING_PER_ACCOUNT,
        avatarWaiting: 1,
        avatarAnswered: false,
      });

      release.open();
      const res = await avatar;
      expect(res.statusCode, res.body).toBe(200);
      const answers = await Promise.all(flood);
      const refused = answers.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(flood.length - MAX_WAITING_PER_ACCOUNT);
      expect(refused[0].json()).toMatchObject({ code: 'upload.too_many_waiting', params: { max: MAX_WAITING_PER_ACCOUNT, retryAfter: 5 } });
      expect(refused[0].headers['retry-after']).toBe('5');
      // the ones that waited ran: one edit wins, the others saw the ad changed meanwhile
      expect(
        answers
          .filter((r) => r.statusCode !== 429)
          .map((r) => r.statusCode)
          .sort(),
      ).toEqual([200, ...Array<number>(MAX_WAITING_PER_ACCOUNT - 1).fill(409)]);
    } finally {
      release.open();
      await Promise.all(held);
    }
  }, 120_000);
});
