import { useCallback, useState } from 'react';

/** Bulk selection of rows by id (checkboxes plus "select all on this page"). */
export function useSelection() {
  const [ids, setIds] = useState<string[]>([]);
  const toggle = useCallback((id: string) => setIds((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id])), []);
  const setAll = useCallback((all: string[], on: boolean) => setIds(on ? all : []), []);
  const clear = useCallback(() => setIds([]), []);
  return { ids, has: (id: string) => ids.includes(id), toggle, setAll, clear };
}
