import type { ReactNode } from "react";

const input = "h-8 w-full rounded-md border border-slate-300 px-2 text-[13px]";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/**
 * A labelled one-line field of a rule form; `name` is the field of the request body it fills. The label wraps the
 * input, so the label text is the input's accessible name.
 */
export function TextField({
  label: text,
  name,
  value,
  onChange,
  inputMode,
  placeholder,
}: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  inputMode?: "text" | "decimal" | "numeric";
  placeholder?: string;
}) {
  return (
    <label className={label}>
      {text}
      <input
        className={input}
        inputMode={inputMode}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        name={name}
      />
    </label>
  );
}

/** A labelled select of a rule form; `children` are its `<option>`s. */
export function SelectField({
  label: text,
  name,
  value,
  onChange,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  children: ReactNode;
}) {
  return (
    <label className={label}>
      {text}
      <select className={input} value={value} onChange={(e) => onChange(e.target.value)} name={name}>
        {children}
      </select>
    </label>
  );
}

/** A checkbox of a rule form with its label beside it (the whole label is the target). */
export function CheckField({
  label: text,
  name,
  checked,
  onChange,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="flex items-center gap-2 text-[13px] text-slate-800">
      <input
        type="checkbox"
        className="size-4"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        name={name}
      />
      {text}
    </label>
  );
}
