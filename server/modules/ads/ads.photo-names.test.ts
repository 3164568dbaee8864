// A photo the server refuses is named in the refusal, by the file name it was sent with and its
// place among the photos sent, so a provider who picked several knows which one to remove. The
// name is the sender's own text: only its base name is quoted, without control or bidi
// characters, cut short; a photo sent without a name keeps the plain wording.
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { multipart } from '../uploads/test-images.ts';
import { goodFields, placeIn, type Place } from './ads.testkit.ts';
import { sentFileName } from './ads.upload.ts';

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const jpeg = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .jpeg()
    .toBuffer();
/** Starts like a JPEG (a browser and the form take it for one) but has no frame: not an image. */
const notAnImage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);

/** Posts the good ad fields with these photos, each part with its own file name (as a browser sends it). */
function postWith(photos: { filename: string; data: Buffer }[]) {
  const body = multipart([
    ...Object.entries(goodFields(ny)).map(([name, data]) => ({ name, data })),
    ...photos.map((p) => ({ name: 'photos', filename: p.filename, contentType: 'image/jpeg', data: p.data })),
  ]);
  return ctx.app.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: owner.cookie, ...body.headers }, payload: body.payload });
}

describe('a refused photo', () => {
  it('is named by its file name and position among the photos sent', async () => {
    const res = await postWith([
      { filename: 'red.jpg', data: await jpeg('#c00') },
      { filename: 'broken.jpg', data: notAnImage },
      { filename: 'green.jpg', data: await jpeg('#0c0') },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      code: 'upload.file_not_an_image',
      params: { field: 'photos', name: 'broken.jpg', position: 2 },
      message: '“broken.jpg” (photos, no. 2) must be a JPEG, PNG or WebP image.',
    });
  });

  it('is named when its pixels fail to decode too (a header that reads, a body cut short)', async () => {
    const whole = await jpeg('#00c');
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const res = await postWith([
      { filename: 'first.jpg', data: whole },
      { filename: 'cut.jpg', data: cut },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'upload.file_damaged', params: { field: 'photos', name: 'cut.jpg', position: 2 } });
  });

  it('quotes only a clean base name: no folders, control or bidi characters', async () => {
    // "\u202Egpj.exe" shows as "exe.jpg" on screen: the override is dropped, so the name reads as sent.
    const res = await postWith([{ filename: 'C:\\Users\\ana\\Fotos\\\u202Egpj.exe', data: notAnImage }]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().params).toEqual({ field: 'photos', name: 'gpj.exe', position: 1 });
  });

  it('keeps the plain wording when it was sent without a name', async () => {
    const res = await postWith([{ filename: '', data: notAnImage }]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      code: 'upload.not_an_image',
      params: { field: 'photos', name: '', position: 1 },
      message: 'The photos must be a JPEG, PNG or WebP image.',
    });
  });
});

describe('sentFileName', () => {
  it('keeps the base name, drops control, format and bidi characters, collapses spaces', () => {
    expect(sentFileName('/home/ana/Fotos/beach.jpg')).toBe('beach.jpg');
    expect(sentFileName('C:\\fotos\\praia.jpg')).toBe('praia.jpg');
    expect(sentFileName('a\u0000b\u0007c\u200Fd\u2066e\u202Ef.jpg')).toBe('abcdef.jpg');
    expect(sentFileName('  my \t\n  photo  .jpg ')).toBe('my photo .jpg');
    expect(sentFileName('\u202E')).toBe('');
    expect(sentFileName(undefined)).toBe('');
    expect(sentFileName('foto-día-ñandú.jpg')).toBe('foto-día-ñandú.jpg');
  });

  it('cuts a long name to 80 characters, never inside a character', () => {
    const long = `${'a'.repeat(100)}.jpg`;
    expect(sentFileName(long)).toBe(`${'a'.repeat(79)}…`);
    const emoji = '😀'.repeat(90);
    const cut = sentFileName(emoji);
    expect(Array.from(cut)).toHaveLength(80);
    expect(cut).toBe(`${'😀'.repeat(79)}…`);
    expect(sentFileName('b'.repeat(80))).toBe('b'.repeat(80));
  });
});
