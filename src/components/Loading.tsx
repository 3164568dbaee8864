/** The seed's 'Loading...' text while client-only pages wait (shown before translations load). */
export function Loading() {
  return (
    <p role="status" aria-live="polite" style={{ padding: 24, textAlign: 'center' }}>
      Loading...
    </p>
  );
}
