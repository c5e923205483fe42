"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { iconButtonClass } from "@/components/ui/button";

/** Props of `Modal` (components/ui/dialog.tsx). */
export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Shown in the footer above its buttons (e.g. acknowledgements the buttons depend on), so it never scrolls away. */
  footerLead?: ReactNode;
  /** `true`: up to 48rem wide (a form with a table); `"xl"`: up to 72rem (a wide preview table). */
  wide?: boolean | "xl";
  testId?: string;
}

/**
 * The Radix dialog behind `Modal` (focus trap, Escape, labelled by its
 * title). Import `Modal` from ./dialog, which loads this module (and Radix)
 * after hydration instead of on the first load.
 */
export function ModalFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  footerLead,
  wide = false,
  testId,
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <Dialog.Content
          data-testid={testId}
          className={
            `fixed left-1/2 top-[12vh] z-50 max-h-[76vh] w-[calc(100vw-2rem)] -translate-x-1/2 ` +
            `overflow-y-auto rounded-lg border border-slate-200 bg-white p-5 shadow-xl ` +
            `${wide === "xl" ? "max-w-6xl" : wide ? "max-w-3xl" : "max-w-md"}`
          }
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="mb-3 flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-[15px] font-semibold text-slate-900">{title}</Dialog.Title>
              {description && (
                <Dialog.Description className="mt-1 text-[13px] text-slate-600">{description}</Dialog.Description>
              )}
            </div>
            <Dialog.Close className={iconButtonClass()} aria-label="Close">
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          {children}
          {/* The footer sticks to the dialog's bottom edge: a long body scrolls beneath it, the actions stay in view. */}
          {(footer || footerLead) && (
            <div
              className="sticky -bottom-5 -mx-5 -mb-5 mt-5 border-t border-slate-200 bg-white px-5 py-3"
              data-testid="modal-footer"
            >
              {footerLead}
              {footer && <div className="flex flex-wrap justify-end gap-2">{footer}</div>}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
