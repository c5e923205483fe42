/** The message of field `field` from a refused save (`data-testid="error-<field>"`), or nothing. */
export function FieldError({ errors, field }: { errors: Record<string, string>; field: string }) {
  return errors[field] ? (
    <span className="text-xs text-red-700" data-testid={`error-${field}`}>
      {errors[field]}
    </span>
  ) : null;
}

/** Class of the admin forms' text inputs and selects. */
export const inputClass = "h-8 rounded-md border border-slate-300 px-2 text-[13px]";

/** One labelled text input of an admin form, with its field error below. */
export function TextField({
  label,
  field,
  value,
  onChange,
  errors,
  ...rest
}: {
  label: string;
  field: string;
  value: string;
  onChange: (v: string) => void;
  errors: Record<string, string>;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  return (
    <label className="flex flex-col gap-1 text-xs text-slate-600">
      {label}
      <input className={inputClass} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
      <FieldError errors={errors} field={field} />
    </label>
  );
}
