"use client";

/**
 * The select box of a review row (approval queue, reconciliation review) with a 24 × 24 px target: `x` toggles the
 * same state.
 */
export function SelectCell({
  label,
  checked,
  onToggle,
  className,
}: {
  label: string;
  checked: boolean;
  onToggle: () => void;
  className: string;
}) {
  return (
    <td className={className}>
      {/* The label is the 24 × 24 px target (WCAG 2.2 target size) around the 16 px box. */}
      <label className="inline-flex size-6 cursor-pointer items-center justify-center align-middle">
        <input type="checkbox" className="size-4" aria-label={label} checked={checked} onChange={onToggle} />
      </label>
    </td>
  );
}
