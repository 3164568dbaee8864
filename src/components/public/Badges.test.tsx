import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { makeAd, makeCard } from '../market/testing';
import { AdGrid } from '../market/AdCard';
import AdDetail from '../../pages/public/AdDetail';

// "Phone verified": on the cards and the ad page of ads whose phone is their owner's verified
// phone (public ad JSON phoneVerified), and nowhere else.

describe('the phone verified badge', () => {
  it('shows on the cards of verified ads only', () => {
    const verified = makeCard({ title: 'Verified number here', phoneVerified: true });
    const plain = makeCard({ title: 'Number not verified' });
    renderAt(<AdGrid ads={[verified, plain]} />);
    const card = (title: string) => within(screen.getByRole('heading', { level: 3, name: title }).closest('li')!);
    expect(card('Verified number here').getByText('Phone verified').getAttribute('title')).toBe(
      'The advertiser confirmed this number with a code sent to it by text message.',
    );
    expect(card('Number not verified').queryByText('Phone verified')).toBeNull();
  });

  it('shows beside the phone on the ad page', async () => {
    const ad = makeAd({ title: 'Verified number page', phone: '+12125550142', phoneVerified: true });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    const phone = await screen.findByRole('link', { name: '(212) 555-0142' });
    expect(phone.closest('dd')!.textContent).toBe('(212) 555-0142 ✓ Phone verified');
  });

  it('is absent from the ad page of an unverified phone', async () => {
    const ad = makeAd({ title: 'Unverified number page', phone: '+12125550142' });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    const phone = await screen.findByRole('link', { name: '(212) 555-0142' });
    expect(phone.closest('dd')!.textContent).toBe('(212) 555-0142');
  });
});
