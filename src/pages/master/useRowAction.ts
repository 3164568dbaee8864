import { useState } from 'react';
import { errorMessage } from '../../api/client';

/** Runs one row's action at a time, remembering which row is busy and how the last one ended. */
export function useRowAction() {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  async function run(rowId: string, action: () => Promise<void>, successMessage: string): Promise<void> {
    setBusyId(rowId);
    setError(null);
    setSuccess(null);
    try {
      await action();
      setSuccess(successMessage);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusyId(null);
    }
  }
  return { busyId, error, success, run };
}
