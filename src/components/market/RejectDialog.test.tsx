import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { GUEST, type Session } from '../../api/session';
import type { RejectionCategory } from '../../api/admin-ads';
import { loadSession, login, logout, sessionStore } from '../../state/session';
import { REASON_MAX, RejectDialog } from './RejectDialog';

// A moderator writing the reason an owner will read: what is typed stays until it is sent or the
// dialog is left through its Cancel button, whatever else closes the dialog on the way.

const mod: Session = { isAuthenticated: true, id: 'u-mod', email: 'mod@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
const REASON = 'The photo shows a phone number and the description repeats another ad word for word.';

/** The pending-ads page's part: a Reject button per ad opening the dialog, the rejection sent by `send`. */
function Queue({ send }: { send: (ids: string[], reason: string, category: RejectionCategory) => Promise<void> }) {
  const [rejecting, setRejecting] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {['ad-1', 'ad-2'].map((id) => (
        <button key={id} type="button" onClick={() => setRejecting([id])}>
          Reject {id}
        </button>
      ))}
      {rejecting && (
        <RejectDialog
          count={rejecting.length}
          adIds={rejecting}
          busy={busy}
          error={error}
          onConfirm={async (reason, category) => {
            setBusy(true);
            setError(null);
            try {
              await send(rejecting, reason, category);
              setRejecting(null);
            } catch {
              setError('Something went wrong.');
            } finally {
              setBusy(false);
            }
          }}
          onCancel={() => {
            setRejecting(null);
            setError(null);
          }}
        />
      )}
    </>
  );
}

const reasonField = () => screen.getByLabelText<HTMLTextAreaElement>('Reason (the owner sees it)');
const categoryField = () => screen.getByLabelText<HTMLSelectElement>('Category (counted in the transparency report)');

function signedIn() {
  sessionStore.session = mod;
  sessionStore.loaded = true;
}

describe('a rejection reason being written', () => {
  it('stays over Escape and a click beside the dialog, for its ad only; Cancel forgets it', async () => {
    signedIn();
    const user = userEvent.setup();
    renderAt(<Queue send={async () => {}} />);
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    await user.type(reasonField(), REASON);
    await user.selectOptions(categoryField(), 'misleading');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe(REASON);
    expect(categoryField().value).toBe('misleading');
    fireEvent.mouseDown(screen.getByRole('dialog').parentElement!); // the backdrop
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Reject ad-2' }));
    expect(reasonField().value).toBe(''); // another ad: another reason
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe(REASON);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe('');
  });

  it('goes once sent; stays when the rejection is refused', async () => {
    signedIn();
    const sent: string[] = [];
    let refuse = true;
    const user = userEvent.setup();
    renderAt(
      <Queue
        send={async (_ids, reason) => {
          if (refuse) throw new Error('lost');
          sent.push(reason);
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    await user.type(reasonField(), REASON);
    await user.click(screen.getByRole('button', { name: 'Reject and refund' }));
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe(REASON);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Reject and refund' }));
    expect(sent).toEqual([REASON]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe('');
  });

  // Signed out elsewhere: the tab reads a visitor's session and goes to sign in. Signed in again,
  // the moderator opens the dialog on the same ad and finds the reason. A sign-out here forgets it.
  it('stays over a session that ends elsewhere, for the same moderator signing in again; a sign-out here forgets it', async () => {
    let answer: Session = mod;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.post('/api/login', () => apiJson('POST /api/login', mod)),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    await loadSession();
    const user = userEvent.setup();
    renderAt(<Queue send={async () => {}} />);
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    await user.type(reasonField(), REASON);
    answer = GUEST;
    await act(() => loadSession());
    cleanup(); // the tab goes to sign in

    await login('mod@example.com', 'correct horse battery');
    renderAt(<Queue send={async () => {}} />);
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe(REASON);
    cleanup();

    await logout();
    signedIn();
    renderAt(<Queue send={async () => {}} />);
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    expect(reasonField().value).toBe('');
  });

  // A prepared reason pasted over the limit: kept whole and said to be too long, never cut at the
  // limit without a word (the owner would read a reason cut mid-word), and not sent.
  it('pasted over the limit is kept whole, shown as too long, and not sent', async () => {
    signedIn();
    const sent: string[] = [];
    const user = userEvent.setup();
    renderAt(
      <Queue
        send={async (_ids, reason) => {
          sent.push(reason);
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Reject ad-1' }));
    const long = 'The photos show another person than the one described. '.repeat(12).trim();
    expect(long.length).toBeGreaterThan(REASON_MAX);
    reasonField().focus();
    await user.paste(long);
    expect(reasonField().value).toBe(long);
    expect(reasonField().getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Reject and refund' }));
    expect(sent).toEqual([]);
    expect(document.activeElement).toBe(reasonField());
  });
});
