import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { sessionStore } from '../../state/session';
import { discardTyped, keepTyped, readTyped, type TypedFields } from '../../state/typedText';

/**
 * A dialog's fields, kept in the tab for its subject (`subject`: 'reject:<ad ids>', 'close:<report
 * id>'…; none: kept nowhere) and the signed-in user (state/typedText), and given back when the
 * dialog opens again on the same subject. What the dialog was told of its action (`busy`, `error`)
 * says whether the text was sent: a dialog closed (unmounted) after its confirm, with no refusal
 * since and by the same user, was sent, and the text goes. Closed any other way (Escape, the
 * backdrop, the session ended: the page went to sign in) it stays; `cancel` (the Cancel button)
 * forgets it. `typed` says whether the fields hold anything worth keeping.
 */
export function useKeptFields<F extends TypedFields>(
  subject: string | undefined,
  empty: F,
  typed: (f: F) => boolean,
  outcome: { busy: boolean; error: unknown },
) {
  const me = useSnapshot(sessionStore).session.id ?? '';
  // The user the text is written for: while another session shows (it ended), it stays theirs, untouched.
  const [writer] = useState(me);
  const [fields, setFields] = useState<F>(() => {
    const kept = subject ? readTyped(writer, subject) : null;
    const out = { ...empty };
    for (const k of Object.keys(empty) as (keyof F & string)[]) if (kept && k in kept) out[k] = kept[k] as F[typeof k];
    return out;
  });
  useEffect(() => {
    if (subject && me === writer) keepTyped(writer, subject, typed(fields) ? fields : null);
  }, [subject, me, writer, fields, typed]);

  // Confirmed, and no refusal came back since: sent, once the dialog closes.
  const sent = useRef(false);
  useEffect(() => {
    if (!outcome.busy && outcome.error) sent.current = false;
  }, [outcome.busy, outcome.error]);
  useEffect(
    () => () => {
      if (subject && sent.current && sessionStore.session.id === writer) discardTyped(subject);
    },
    [subject, writer],
  );

  return {
    fields,
    set: (patch: Partial<F>) => setFields((old) => ({ ...old, ...patch })),
    /** The action is asked for with these fields. */
    confirmed: () => {
      sent.current = true;
    },
    /** Left through the dialog's Cancel: the text goes. */
    cancelled: () => {
      if (subject) discardTyped(subject);
    },
  };
}
