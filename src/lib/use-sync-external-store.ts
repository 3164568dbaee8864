// Stands in for `use-sync-external-store/shim` (vite.config.ts alias): wouter imports the shim for
// React < 18, while React 19 has the hook built in, so the shim's code never ships.
export { useSyncExternalStore } from 'react';
