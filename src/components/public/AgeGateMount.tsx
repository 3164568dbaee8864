import { lazy, Suspense, useEffect, useState } from 'react';
import { AGE_GATE_DELAY_MS, isAgeConfirmed, isBot } from './ageConfirmation';

const loadGate = () => import('./AgeGate');
const AgeGate = lazy(loadGate);

/** Opens the age gate 1 s after load unless the visitor confirmed within 30 days (or is a crawler). */
export function AgeGateMount() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (isBot(navigator.userAgent) || isAgeConfirmed()) return;
    void loadGate(); // fetch the dialog's code now so it is ready at 1 s
    const timer = setTimeout(() => {
      if (!isAgeConfirmed()) setOpen(true);
    }, AGE_GATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <AgeGate onClose={() => setOpen(false)} />
    </Suspense>
  );
}
