import type { ReactNode } from 'react';

/** The narrow card the sign-in, register and confirmation pages sit in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card" style={{ maxWidth: 440, margin: '32px auto' }} aria-labelledby="auth-title">
      <h1 id="auth-title" style={{ marginTop: 0 }}>
        {title}
      </h1>
      {children}
    </section>
  );
}
