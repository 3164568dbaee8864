import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { NoteDialog } from './NoteDialog';

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
