import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'wouter';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { renderAt } from '../test/render';
import { makeAd } from '../components/market/testing';
import { sessionStore, logout, login } from '../state/session';
import { GUEST, type Session } from '../api/session';
import type { ErrorBody } from '../../contract/errors/index.ts';
import AdDetail from '../pages/public/AdDetail';

const NOT_FOUND: ErrorBody = { message: 'Ad not found.', code: 'listings.ad_not_found' };
const ANN: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('the pages’ data across a change of user in the same tab', () => {
  // The page cache is not all public: GET /api/ads/{id} answers a hidden ad (in review, offline…)
  // to its owner only, with the phone number. An owner who opened that preview and signs out must
  // not leave it to the next person using the tab: sign-out forgets every page's data, and the page
  // asks the server again (which says 404 to a visitor).
  it('does not show an owner preview of a hidden ad to the visitor who opens it after sign-out', async () => {
    const hidden = makeAd({ title: 'My ad waiting for review', status: 'in_review', phone: '+12125550199' });
    let signedIn = true;
    server.use(
      http.get('/api/ads/:id', () => (signedIn ? apiJson('GET /api/ads/:id', { ad: hidden }) : apiJson('GET /api/ads/:id', NOT_FOUND as never, 404))),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    sessionStore.session = ANN;
    sessionStore.loaded = true;

    // The owner opens the preview from "My ads" (client-side navigation).
    const first = renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${hidden.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'My ad waiting for review' })).toBeTruthy();
    first.unmount();

    // Sign out (the server forgets the cookie), then the next person opens the same address.
    await logout();
    signedIn = false;
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${hidden.id}`);
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'My ad waiting for review' })).toBeNull());
    expect(screen.queryByText('(212) 555-0199')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('This ad is not available. It may have expired or been removed.');
  });

  // The same on a sign-in: what a visitor (or a previous user) was shown is asked for again, now
  // as the signed-in user, and the page on screen loads its data again rather than waiting forever.
  it('asks again for the page on screen when someone signs in', async () => {
    const hidden = makeAd({ title: 'My ad waiting for review', status: 'in_review' });
    let signedIn = false;
    server.use(
      http.get('/api/ads/:id', () => (signedIn ? apiJson('GET /api/ads/:id', { ad: hidden }) : apiJson('GET /api/ads/:id', NOT_FOUND as never, 404))),
      http.post('/api/login', () => {
        signedIn = true;
        return apiJson('POST /api/login', ANN);
      }),
    );
    sessionStore.loaded = true;
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${hidden.id}`);
    expect((await screen.findByRole('alert')).textContent).toBe('This ad is not available. It may have expired or been removed.');
    await login('ann@example.com', 'correct horse battery');
    expect(await screen.findByRole('heading', { level: 1, name: 'My ad waiting for review' })).toBeTruthy();
  });

  // An owner's load still on its way when they sign out is dropped on arrival: it was asked as the
  // owner, and the page on screen has already asked again as a visitor.
  it('drops an owner’s answer that arrives after sign-out', async () => {
    const hidden = makeAd({ title: 'My ad waiting for review', status: 'in_review', phone: '+12125550199' });
    let release!: () => void;
    const ownerAnswerHeld = new Promise<void>((r) => (release = r));
    let signedIn = true;
    let asked = 0;
    server.use(
      http.get('/api/ads/:id', async () => {
        asked++;
        if (!signedIn) return apiJson('GET /api/ads/:id', NOT_FOUND as never, 404);
        await ownerAnswerHeld;
        return apiJson('GET /api/ads/:id', { ad: hidden });
      }),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    sessionStore.session = ANN;
    sessionStore.loaded = true;
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${hidden.id}`);
    await waitFor(() => expect(asked).toBe(1));
    await logout();
    signedIn = false;
    expect((await screen.findByRole('alert')).textContent).toBe('This ad is not available. It may have expired or been removed.');
    release();
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('heading', { level: 1, name: 'My ad waiting for review' })).toBeNull();
    expect(screen.queryByText('(212) 555-0199')).toBeNull();
  });
});
