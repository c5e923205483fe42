"use client";

import { useState } from "react";
import { AlertTriangle, Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";

/** The signing secret, shown once: a copy button and a warning that it cannot be shown again. */
export function SecretDialog({ secret, rotated, onClose }: { secret: string; rotated: boolean; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={rotated ? "New signing secret" : "Endpoint created — signing secret"}
      testId="secret-dialog"
      footer={
        <Button variant="primary" onClick={onClose}>
          I have stored the secret
        </Button>
      }
    >
      <p
        className="mb-3 flex gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900"
        role="alert"
      >
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          This secret is shown only now and cannot be shown again. Store it where your receiver reads it.
          {rotated
            ? " The previous secret stays valid for 24 hours, so deliveries carry both signatures meanwhile."
            : ""}
        </span>
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded border border-slate-200 bg-slate-50 px-2 py-1.5 font-mono text-xs"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <Button
          aria-label="Copy the secret"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          <Copy className="size-3.5" aria-hidden /> {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </Modal>
  );
}
