import { useId, type ReactNode } from 'react';

/**
 * A short label beside its control, tied by id (not by wrapping: a label around a select would make the options'
 * text part of the control's accessible name).
 */
export function InlineField({ label, className, children }: { label: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <span className={className ? `inline-field ${className}` : 'inline-field'}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </span>
  );
}
