/** One titled group of the settings view. */
import { useId, type ReactNode } from 'react';

export function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {description && <p className="muted small">{description}</p>}
      <div className="settings-fields">{children}</div>
    </section>
  );
}
