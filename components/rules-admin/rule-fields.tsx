import type { ReactNode } from "react";

const input = "h-8 w-full rounded-md border border-slate-300 px-2 text-[13px]";
// min-w-0: a select is as wide as its longest option otherwise, wider than a phone's column.
const label = "flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-700";

/** The keys of `D` whose values are of type `V`. */
type KeysOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D] & string;

/**
 * The fields of a rule form bound to a draft: each one shows `draft[name]`, changes it through `set`, and carries
 * `name` (the field of the request body it fills). A label wraps its input, so the label text is the input's
 * accessible name.
 */
export function ruleFields<D extends object>(draft: D, set: (patch: Partial<D>) => void) {
  // One field's patch; `name` is a key of D whose values take `value` (the KeysOf constraint at each call).
  const patch = (name: keyof D, value: unknown) => set({ [name]: value } as Partial<D>);
  return {
    /** A one-line text field. */
    text: (
      name: KeysOf<D, string>,
      text: string,
      opts: { inputMode?: "decimal" | "numeric"; placeholder?: string } = {},
    ) => (
      <label className={label}>
        {text}
        <input
          className={input}
          inputMode={opts.inputMode}
          placeholder={opts.placeholder}
          value={draft[name] as string}
          onChange={(e) => patch(name, e.target.value)}
          name={name}
        />
      </label>
    ),
    /** A select; `options` are its `<option>`s, whose values the draft's field takes. */
    select: (name: KeysOf<D, string>, text: string, options: ReactNode) => (
      <label className={label}>
        {text}
        <select
          className={input}
          value={draft[name] as string}
          onChange={(e) => patch(name, e.target.value)}
          name={name}
        >
          {options}
        </select>
      </label>
    ),
    /** A checkbox with its label beside it (the whole label is the target). */
    check: (name: KeysOf<D, boolean>, text: string) => (
      <label className="flex items-center gap-2 text-[13px] text-slate-800">
        <input
          type="checkbox"
          className="size-4"
          checked={draft[name] as boolean}
          onChange={(e) => patch(name, e.target.checked)}
          name={name}
        />
        {text}
      </label>
    ),
  };
}
