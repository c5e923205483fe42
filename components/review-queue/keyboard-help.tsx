"use client";

import { Keyboard } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";

/** Classes of the keyboard's active row: a tint and a bar on its left edge. */
export const ACTIVE_ROW = "bg-sky-50/70 shadow-[inset_3px_0_0_var(--color-sky-600)]";

/** The "?" button that opens the keyboard help. */
export function KeyboardHelpButton({ onOpen }: { onOpen: () => void }) {
  return (
    <Button variant="ghost" onClick={onOpen} aria-label="Keyboard shortcuts">
      <Keyboard className="size-4" aria-hidden /> ?
    </Button>
  );
}

/** The "?" help of a review list: its keys in a table. */
export function KeyboardHelp({
  open,
  onOpenChange,
  approveLabel,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  approveLabel: string;
}) {
  const keys: [string, string][] = [
    ["j", "Next row"],
    ["k", "Previous row"],
    ["x", "Select or unselect the row"],
    ["a", `${approveLabel} the row (asks to confirm)`],
    ["r", "Reject the row (asks for a reason)"],
    ["?", "This help"],
  ];
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts" testId="keyboard-help">
      <table className="w-full text-[13px]" aria-label="Keyboard shortcuts">
        <tbody>
          {keys.map(([k, what]) => (
            <tr key={k}>
              <td className="w-12 py-1">
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{k}</kbd>
              </td>
              <td className="py-1 text-slate-700">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
