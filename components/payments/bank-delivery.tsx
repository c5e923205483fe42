"use client";

import { CheckCircle2 } from "lucide-react";
import type { BankDelivery } from "@treasury/contract";
import { Timestamp } from "@/components/format/business-date";

/**
 * "Sent to bank · <file> · <time>" for a batch whose payment file went to its bank over a host-to-host connection
 * (docs/bank-channels.md "Push"): the file name as it lies in the bank's inbox, the time in the viewer's zone and
 * locale (with the zone's name: operations compare it with the bank's logs), and the connection's bank.
 * Renders nothing when the API did not send the field (`undefined`: an API without bank channels) or the file has
 * not been sent (`null`).
 */
export function BankDeliveryLine({ delivery }: { delivery: BankDelivery | null | undefined }) {
  if (!delivery) return null;
  return (
    <p
      className="mb-5 flex flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-2 text-[13px] text-emerald-900"
      data-testid="batch-bank-delivery"
    >
      <CheckCircle2 className="size-4 shrink-0" aria-hidden />
      <span className="font-medium">Sent to bank</span>
      <span aria-hidden>·</span>
      <span className="font-mono break-all" data-testid="batch-bank-file">
        {delivery.file_name}
      </span>
      <span aria-hidden>·</span>
      <Timestamp value={delivery.sent_at} zone />
      <span className="text-emerald-800">({delivery.connection_name})</span>
    </p>
  );
}
