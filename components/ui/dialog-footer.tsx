"use client";

import type { ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

/**
 * The footer of a dialog that asks for one action: "Cancel" (`onCancel`, disabled while `pending`), then the action's
 * button (`variant`, its spinner while `pending`, `disabled` while it cannot act yet, `onAct`, `testId`) labelled
 * `children`.
 */
export function DialogFooter({
  onCancel,
  pending,
  variant,
  disabled,
  onAct,
  testId,
  children,
}: {
  onCancel: () => void;
  pending: boolean;
  variant: ButtonVariant;
  disabled?: boolean;
  onAct: () => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <>
      <Button onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button variant={variant} pending={pending} disabled={disabled} onClick={onAct} data-testid={testId}>
        {children}
      </Button>
    </>
  );
}
