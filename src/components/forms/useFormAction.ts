import { useCallback, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';

/**
 * The busy / error / success cycle of one form's submit. The action is the store's; this only
 * tracks what the form shows; a second submit while one runs is ignored.
 */
export function useFormAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const running = useRef(false);

  const run = useCallback(async <T>(action: () => Promise<T>, successMessage?: string): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(null);
    setSuccess(null);
    try {
      const out = await action();
      if (successMessage) setSuccess(successMessage);
      return out;
    } catch (e) {
      setError(errorMessage(e));
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);

  return { busy, error, success, run, setError, setSuccess };
}
