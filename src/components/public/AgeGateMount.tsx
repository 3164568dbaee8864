import { lazy, Suspense, useEffect, useState } from 'react';
import { AGE_GATE_DELAY_MS, isAgeConfirmed } from './ageConfirmation';

const loadGate = () => import('./AgeGate');
const AgeGate = lazy(loadGate);

/** Opens the age gate 1 s after load unless the visitor confirmed within 30 days (or is a crawler). */
export function AgeGateMount() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (isAgeConfirmed()) return;
    const gate = loadGate(); // the dialog's code loads now, so it is ready at 1 s
    let live = true;
    const timer = setTimeout(() => {
      void gate.then((m) => {
        if (live && !isAgeConfirmed() && !m.isBot(navigator.userAgent)) setOpen(true);
      });
    }, AGE_GATE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <AgeGate onClose={() => setOpen(false)} />
    </Suspense>
  );
}
