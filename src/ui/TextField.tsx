import { useId, type InputHTMLAttributes, type Ref } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Shown under the field in red; also marks the input invalid for assistive technology. */
  error?: string | null;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** Label above, input, and one line reserved for the hint or the error so the form never jumps. */
export function TextField({ label, error, hint, className, ref, ...input }: TextFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error || hint;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-[13px] font-medium text-fg-muted">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        {...input}
      />
      <p id={noteId} aria-live="polite" className={`mt-1 min-h-[1.25rem] text-xs leading-5 ${error ? 'text-danger' : 'text-fg-subtle'}`}>
        {note ?? ''}
      </p>
    </div>
  );
}
