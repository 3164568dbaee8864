import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { GUEST, type Session } from '../../api/session';
import { loadSession, login, logout, sessionStore } from '../../state/session';
import { NoteDialog, TEXT_MAX } from './NoteDialog';

describe('staff note dialog (legal hold, release, closing a report)', () => {
  // Submitted with the note too short, the note takes focus, invalid and described by its rule:
  // a blind moderator who pressed "Place hold" hears why nothing happened.
  it('moves focus to the refused note, described by its rule', async () => {
    const confirmed: string[] = [];
    const user = userEvent.setup();
    renderAt(
      <NoteDialog
        title="Place a legal hold"
        label="Reason"
        confirmLabel="Place hold"
        busy={false}
        error={null}
        onConfirm={(x) => confirmed.push(x)}
        onCancel={() => {}}
      />,
    );
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'ab');
    await user.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(confirmed).toEqual([]);
    const note = screen.getByRole('textbox', { name: 'Reason', description: 'Between 3 and 1000 characters.' });
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(note);

    await user.type(note, 'c');
    await user.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(confirmed).toEqual(['abc']);
  });
});

const mod: Session = { isAuthenticated: true, id: 'u-mod', email: 'mod@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
const NOTE = 'Checked both accounts: the same person, the older ad stays, the copy is gone.';

/** The reports page's part: a Close button per report opening the dialog, the note sent by `send`. */
function Reports({ send }: { send: (id: string, note: string) => Promise<void> }) {
  const [closing, setClosing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {['r-1', 'r-2'].map((id) => (
        <button key={id} type="button" onClick={() => setClosing(id)}>
          Close {id}
        </button>
      ))}
      {closing && (
        <NoteDialog
          title="Close the report"
          label="Note"
          confirmLabel="Close report"
          busy={busy}
          error={error}
          keepAs={`close:${closing}`}
          onConfirm={async (note) => {
            setBusy(true);
            setError(null);
            try {
              await send(closing, note);
              setClosing(null);
            } catch {
              setError('Something went wrong.');
            } finally {
              setBusy(false);
            }
          }}
          onCancel={() => {
            setClosing(null);
            setError(null);
          }}
        />
      )}
    </>
  );
}

const noteField = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });

describe('a closing note being written', () => {
  it('stays over Escape, a click beside the dialog, a refusal and a session ended elsewhere, for its report; goes when sent, on Cancel, on sign-out', async () => {
    let answer: Session = mod;
    server.use(
      http.get('/api/session', () => apiJson('GET /api/session', answer)),
      http.post('/api/login', () => apiJson('POST /api/login', mod)),
      http.post('/api/logout', () => apiJson('POST /api/logout', GUEST)),
    );
    await loadSession();
    const sent: string[] = [];
    let refuse = true;
    const send = async (_id: string, note: string) => {
      if (refuse) throw new Error('lost');
      sent.push(note);
    };
    const user = userEvent.setup();
    renderAt(<Reports send={send} />);
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    await user.type(noteField(), NOTE);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Close r-2' }));
    expect(noteField().value).toBe(''); // another report: another note
    fireEvent.mouseDown(screen.getByRole('dialog').parentElement!); // the backdrop
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    expect(noteField().value).toBe(NOTE);
    await user.click(screen.getByRole('button', { name: 'Close report' }));
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
    await user.keyboard('{Escape}');

    answer = GUEST; // signed out elsewhere: the tab reads a visitor's session and goes to sign in
    await act(() => loadSession());
    cleanup();
    await login('mod@example.com', 'correct horse battery');
    renderAt(<Reports send={send} />);
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    expect(noteField().value).toBe(NOTE);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Close report' }));
    expect(sent).toEqual([NOTE]);
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    expect(noteField().value).toBe('');

    await user.type(noteField(), NOTE);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    expect(noteField().value).toBe('');

    await user.type(noteField(), NOTE);
    await user.keyboard('{Escape}');
    cleanup();
    await logout();
    sessionStore.session = mod;
    renderAt(<Reports send={send} />);
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    expect(noteField().value).toBe('');
  });

  it('pasted over the limit is kept whole, shown as too long, and not sent', async () => {
    sessionStore.session = mod;
    const sent: string[] = [];
    const user = userEvent.setup();
    renderAt(<Reports send={async (_id, note) => void sent.push(note)} />);
    await user.click(screen.getByRole('button', { name: 'Close r-1' }));
    const long = NOTE.repeat(15);
    expect(long.length).toBeGreaterThan(TEXT_MAX);
    noteField().focus();
    await user.paste(long);
    expect(noteField().value).toBe(long);
    expect(noteField().getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Close report' }));
    expect(sent).toEqual([]);
  });
});
