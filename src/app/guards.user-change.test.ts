import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../test/server';
import { renderAt } from '../test/render';
import { apiJson } from '../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES } from '../components/market/testing';
import CreateAds from '../pages/dashboard/CreateAds';
import { RequireRole } from './guards';
import { loadSession } from '../state/session';
import type { Session } from '../api/session';

const ann: Session = { isAuthenticated: true, id: 'u-ann', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
const bob: Session = { isAuthenticated: true, id: 'u-bob', email: 'bob@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('the shared computer and the typed work kept for its writer', () => {
  // Ann's session ends by itself (or elsewhere, without this tab hearing it) while her post-ad form
  // is open; Bob signs in on the same computer in another tab, and this tab reads his session
  // (BroadcastChannel, focus). The guard stays satisfied (a provider is signed in): unless it mounts
  // the page afresh for Bob, CreateAds keeps its state and Bob is shown Ann's title and description
  // (and posting sends them as his ad). Once the tab's session is another user's, nothing Ann
  // typed is on Bob's screen.
  it('does not show Ann’s post-ad form text to Bob when the tab’s session turns into his', async () => {
    let answer = ann;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/cities-from-state/:stateId', () => apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })),
    );
    await loadSession();
    const user = userEvent.setup();
    renderAt(createElement(RequireRole, { need: 'user', children: createElement(CreateAds) }), '/admin/dashboard/create-ads');
    await user.type(screen.getByLabelText('Title'), 'Ann private title here');
    await user.type(screen.getByLabelText('Description'), 'Ann wrote this description for her own ad, not for anyone else to read.');
    answer = bob;
    await act(() => loadSession());
    await waitFor(() => expect(document.body.textContent).not.toContain('Loading'));
    const title = screen.queryByLabelText<HTMLInputElement>('Title')?.value ?? '';
    const description = screen.queryByLabelText<HTMLTextAreaElement>('Description')?.value ?? '';
    expect({ title, description }).toEqual({ title: '', description: '' });
  });
});
