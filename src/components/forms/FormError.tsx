/** A form's outcome: errors are alerts (announced at once), successes are polite status messages. */
export function FormError({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error" id={id}>
      {message}
    </div>
  );
}

export function FormSuccess({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div role="status" className="alert alert-success">
      {message}
    </div>
  );
}
