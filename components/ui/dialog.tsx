"use client";

import dynamic from "next/dynamic";
import type { ModalProps } from "./modal-frame";

const ModalFrame = dynamic(() => import("./modal-frame").then((m) => m.ModalFrame), { ssr: false });

/**
 * A modal dialog (Radix: focus trap, Escape, labelled by its title). Used
 * for confirmations before irreversible actions and small
 * forms; `footer` holds the actions.
 *
 * No dialog is open at first paint, so Radix (≈ 9 KB gz with its focus
 * scope and scroll lock) is not part of any page's first-load JS: the frame
 * is loaded on the client as soon as a `Modal` mounts (usually right after
 * hydration, closed), and a dialog mounted already open appears once it
 * has loaded.
 */
export function Modal(props: ModalProps) {
  return <ModalFrame {...props} />;
}
