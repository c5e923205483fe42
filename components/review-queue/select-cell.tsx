"use client";

/** The select box of a review row (approval queue, reconciliation review): `x` toggles the same state. */
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
      <input type="checkbox" aria-label={label} checked={checked} onChange={onToggle} />
    </td>
  );
}
