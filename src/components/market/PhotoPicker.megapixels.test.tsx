import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, apiError } from './testing';
import { PhotoPicker } from './PhotoPicker';
import CreateAds from '../../pages/dashboard/CreateAds';

// The picker refuses, when a photo is picked, what the server would refuse from its header after
// the whole post was uploaded (server/core/images.ts, the same reader: contract/image-header.ts):
// over 40 megapixels (phones' 48 and 50 MP modes write 8000×6000, 8160×6120), or not really a JPEG,
// PNG or WebP whatever the file's name says.

/** A JPEG's start: SOI, `exif` bytes of an APP1 segment (EXIF and XMP may run to hundreds of KB), then the frame header declaring its size. */
function jpeg(name: string, width: number, height: number, exif = 0): File {
  const app1: number[] = [];
  for (let left = exif; left > 0; left -= 0xfffd) {
    const n = Math.min(left, 0xfffd);
    app1.push(0xff, 0xe1, (n + 2) >> 8, (n + 2) & 255, ...new Array<number>(n).fill(0x45));
  }
  const frame = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03];
  return new File([new Uint8Array([0xff, 0xd8, ...app1, ...frame, ...new Array<number>(4096).fill(0)])], name, { type: 'image/jpeg' });
}

/** A PNG's start: signature and IHDR declaring its size. */
function png(name: string, width: number, height: number): File {
  const b = new Uint8Array(64);
  const view = new DataView(b.buffer);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  view.setUint32(16, width);
  view.setUint32(20, height);
  b.set([8, 2, 0, 0, 0], 24);
  return new File([b], name, { type: 'image/png' });
}

/** An iPhone photo (HEIC) renamed .jpg: its box header says what it is. */
const heicNamedJpg = (name: string) =>
  new File([new Uint8Array([0, 0, 0, 0x18, ...[...'ftypheic'].map((c) => c.charCodeAt(0)), ...new Array<number>(64).fill(0)])], name, { type: 'image/jpeg' });

function Photos() {
  const [files, setFiles] = useState<File[]>([]);
  return <PhotoPicker files={files} onChange={setFiles} />;
}

const picked = () => screen.queryAllByRole('listitem').flatMap((li) => (li.querySelector('[data-remove]') ? [li.querySelector('span')!.textContent] : []));

describe('the photo picker reads each photo’s header', () => {
  it('refuses a photo over 40 megapixels or not really an image, naming it, and keeps the others', async () => {
    const user = userEvent.setup();
    renderAt(<Photos />);
    await user.upload(screen.getByLabelText('Photos'), [
      jpeg('phone-12mp.jpg', 4032, 3024, 60_000),
      jpeg('beach.jpg', 8160, 6120),
      // Its frame header comes after 150 KB of EXIF and XMP: read past the first 64 KB.
      jpeg('pixel-50mp.jpg', 8160, 6120, 150_000),
      png('scan.png', 8000, 6000),
      jpeg('exactly-40mp.jpg', 8000, 5000),
      heicNamedJpg('iphone.jpg'),
    ]);
    await waitFor(() => expect(screen.getByRole('alert')).toBeTruthy());
    expect([...screen.getByRole('alert').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'beach.jpg is 8160×6120, 49.9 megapixels: at most 40 are accepted. Choose a smaller size (set the camera to 12 MP, or share a resized copy).',
      'pixel-50mp.jpg is 8160×6120, 49.9 megapixels: at most 40 are accepted. Choose a smaller size (set the camera to 12 MP, or share a resized copy).',
      'scan.png is 8000×6000, 48 megapixels: at most 40 are accepted. Choose a smaller size (set the camera to 12 MP, or share a resized copy).',
      'iphone.jpg is not a JPEG, PNG or WebP image.',
    ]);
    expect(picked()).toEqual(['phone-12mp.jpg', 'exactly-40mp.jpg']);
  });

  it('says so in the page’s language', async () => {
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<Photos />);
      await user.upload(screen.getByLabelText('Fotos'), [jpeg('playa.jpg', 8160, 6120)]);
      expect((await screen.findByRole('alert')).textContent).toBe(
        'playa.jpg mide 8160×6120, 49,9 megapíxeles: se aceptan 40 como máximo. Elige un tamaño menor (pon la cámara en 12 MP o comparte una copia reducida).',
      );
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('leaves a JPEG whose frame header lies past the bytes it reads to the server', async () => {
    const user = userEvent.setup();
    renderAt(<Photos />);
    await user.upload(screen.getByLabelText('Photos'), [jpeg('depth-map.jpg', 8160, 6120, 300_000)]);
    await waitFor(() => expect(picked()).toEqual(['depth-map.jpg']));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the post-ad form', () => {
  // PRODUCT §10: the client shows the server's rules before submit. A 50 MP phone photo, under
  // 10 MB, was refused (413 upload.file_too_many_pixels) only after every photo of the post was uploaded.
  it('refuses a 50-megapixel photo when it is picked, and sends nothing', async () => {
    let posted = 0;
    server.use(
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/cities-from-state/:stateId', () => apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })),
      // What the real server answers such a photo, once every photo of the post has been uploaded.
      http.post('/api/post-ad', () => {
        posted++;
        return apiError('POST /api/post-ad', 413, 'upload.file_too_many_pixels', {
          field: 'photos',
          name: 'beach.jpg',
          position: 1,
          width: 8160,
          height: 6120,
          megapixels: 49.9,
          max: 40,
        });
      }),
    );
    const user = userEvent.setup();
    renderAt(<CreateAds />, '/admin/dashboard/create-ads');
    await user.selectOptions(screen.getByLabelText('Listing type'), 'female_esc');
    await user.type(screen.getByLabelText('Title'), 'Warm and friendly company');
    await user.type(screen.getByLabelText('Description'), 'Relaxed evenings, good conversation and a warm welcome every time.');
    await user.selectOptions(screen.getByLabelText('Age'), '30');
    await waitFor(() => expect(screen.getByRole('option', { name: 'New York' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('State'), 'st-ny');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Buffalo' })).toBeTruthy());
    await user.selectOptions(screen.getByLabelText('City'), 'ct-buf');
    await user.type(screen.getByLabelText('Phone'), '(212) 555-0123');
    await user.upload(screen.getByLabelText('Photos'), [jpeg('beach.jpg', 8160, 6120)]);
    expect(await screen.findByText(/^beach\.jpg is 8160×6120, 49\.9 megapixels/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Post ad' }));

    expect(posted).toBe(0);
    expect(screen.getByText(/photos, JPEG, PNG or WebP/, { selector: '.field-error' })).toBeTruthy();
  });
});
