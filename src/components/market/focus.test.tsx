import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiError } from './testing';
import type { RateRow } from './adForm';
import { RatesField } from './RatesField';
import { PhotoPicker } from './PhotoPicker';
import { RejectDialog } from './RejectDialog';
import { PromoCodeForm } from './PromoCodeForm';

// Where keyboard focus goes after an action takes away the control it came from, or refuses it.

/** What a screen reader reads after a field's name: the texts its aria-describedby points at. */
function description(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

function Rates() {
  const [rows, setRows] = useState<RateRow[]>([]);
  return <RatesField rows={rows} onChange={setRows} />;
}

function Photos() {
  const [files, setFiles] = useState<File[]>([]);
  return <PhotoPicker files={files} onChange={setFiles} />;
}

/** The start of a 640×480 JPEG (SOI, then the frame header the picker reads its size from). */
const jpeg = (name: string) =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 480 >> 8, 480 & 255, 640 >> 8, 640 & 255, 0x03])], name, { type: 'image/jpeg' });

describe('focus after a removal', () => {
  it("removing a rate line moves focus to the next line's Remove, else the previous one's, else to Add a rate", async () => {
    const user = userEvent.setup();
    renderAt(<Rates />);
    const add = screen.getByRole('button', { name: 'Add a rate' });
    for (let i = 0; i < 3; i++) await user.click(add);

    await user.click(screen.getByRole('button', { name: 'Remove rate 2' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove rate 2' })); // the old third line
    expect(screen.queryByRole('button', { name: 'Remove rate 3' })).toBeNull();
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove rate 1' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a rate' }));
  });

  it("removing a picked photo moves focus to the next photo's Remove, else the previous one's, else to the file input", async () => {
    const user = userEvent.setup();
    renderAt(<Photos />);
    await user.upload(screen.getByLabelText('Photos'), [jpeg('a.jpg'), jpeg('b.jpg'), jpeg('c.jpg')]);

    await user.click(screen.getByRole('button', { name: 'Remove photo a.jpg' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove photo b.jpg' }));
    await user.click(screen.getByRole('button', { name: 'Remove photo c.jpg' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove photo b.jpg' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('Photos'));
  });
});

describe('refusals tied to their field', () => {
  it('rejecting without a valid reason moves focus to the reason field, invalid and described by its rule', async () => {
    const sent: string[] = [];
    const user = userEvent.setup();
    renderAt(<RejectDialog count={1} busy={false} error={null} onConfirm={(r) => sent.push(r)} onCancel={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Reject and refund' }));
    const reason = screen.getByLabelText('Reason (the owner sees it)');
    expect(document.activeElement).toBe(reason);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(description(reason)).toMatch(/\d/);
    expect(sent).toEqual([]);

    await user.type(reason, 'Photos do not match');
    await user.click(screen.getByRole('button', { name: 'Reject and refund' }));
    expect(sent).toEqual(['Photos do not match']);
  });

  it('a promo code refused as taken marks the Code field invalid, described by the refusal, and focuses it', async () => {
    server.use(http.post('/api/admin/set-promo-code-by-id', () => apiError('POST /api/admin/set-promo-code-by-id', 409, 'pricing.promo_code_taken')));
    const user = userEvent.setup();
    renderAt(<PromoCodeForm editing={null} onDone={() => {}} />);
    const code = screen.getByLabelText('Code');
    await user.type(code, 'SUMMER-10');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A promo code with this code already exists.');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(description(code)).toContain('A promo code with this code already exists.');
    expect(document.activeElement).toBe(code);
  });

  it('another refusal of a promo code is not put on the Code field', async () => {
    server.use(
      http.post('/api/admin/set-promo-code-by-id', () => apiError('POST /api/admin/set-promo-code-by-id', 400, 'pricing.promo_max_uses_out_of_range')),
    );
    const user = userEvent.setup();
    renderAt(<PromoCodeForm editing={null} onDone={() => {}} />);
    const code = screen.getByLabelText('Code');
    await user.type(code, 'SUMMER-10');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    await screen.findByRole('alert');
    expect(code.getAttribute('aria-invalid')).toBeNull();
  });
});
