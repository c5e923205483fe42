"use client";

import { useId, type InputHTMLAttributes, type ReactNode } from "react";

/** A labelled text input of the counterparty dialogs, with its error (from the server) under it. */
export function Field({
  label,
  error,
  hint,
  mono = false,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string; mono?: boolean }) {
  const id = useId();
  const described = error ? `${id}-err` : hint ? `${id}-hint` : undefined;
  return (
    <FieldShell id={id} label={label}>
      <input
        id={id}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={
          `h-8 rounded-md border px-2 text-[13px] ` +
          `${mono ? "font-mono" : ""} ${error ? "border-red-500" : "border-slate-300"}`
        }
      />
      {error ? (
        <FieldError id={id} label={label} error={error} />
      ) : hint ? (
        <span id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </span>
      ) : null}
    </FieldShell>
  );
}

/** A labelled multi-line reason (required for changes and decisions; kept in the history and the audit log). */
export function ReasonField({
  value,
  onChange,
  error,
  label = "Reason",
  placeholder,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string;
  label?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <FieldShell id={id} label={label}>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={3}
        maxLength={500}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        className={`rounded-md border px-2 py-1.5 text-[13px] ${error ? "border-red-500" : "border-slate-300"}`}
        data-testid="reason"
      />
      {error && <FieldError id={id} label={label} error={error} />}
    </FieldShell>
  );
}

/** A field's label (for the control with `id`) above the control and what follows it. */
function FieldShell({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A field's error under it, `${id}-err` for the control's aria-describedby: the label, then what is wrong. */
function FieldError({ id, label, error }: { id: string; label: string; error: string }) {
  return (
    <span id={`${id}-err`} className="text-xs text-red-700" data-testid="field-error">
      {label} {error}
    </span>
  );
}
