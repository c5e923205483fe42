"use client";

import { FileUp, Send } from "lucide-react";
import { Button } from "@/components/ui/button";
import { isFinalRefusal } from "@/components/data/error-text";
import type { useSaveBatch } from "./use-save-batch";

/**
 * Import CSV on the left; on the right, why the last save failed and the Create / Save button, and for a new batch
 * "Create and submit…" (the batch opens with its submit dialog: one click less for the usual case). `onPress` says
 * which was pressed (true: and submit) before the form submits.
 */
export function SaveBar({
  save,
  onImport,
  editing,
  onPress,
}: {
  save: ReturnType<typeof useSaveBatch>["save"];
  onImport: () => void;
  editing: boolean;
  onPress: (thenSubmit: boolean) => void;
}) {
  const pending = save.isPending || save.isSuccess;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <Button onClick={onImport} data-testid="open-csv">
        <FileUp className="size-4" aria-hidden /> Import CSV…
      </Button>
      <div className="flex flex-wrap items-center gap-3">
        {save.isError && (
          <span className="text-[13px] text-red-700">
            {isFinalRefusal(save.error)
              ? "Not saved. Correct the marked fields, then save again."
              : "Not saved. Saving again sends the same request for the same batch."}
          </span>
        )}
        <Button
          type="submit"
          variant={editing ? "primary" : "secondary"}
          pending={pending}
          onClick={() => onPress(false)}
          data-testid="save-batch"
        >
          {save.isPending ? "Saving…" : editing ? "Save changes" : "Create batch"}
        </Button>
        {!editing && (
          <Button
            type="submit"
            variant="primary"
            pending={pending}
            onClick={() => onPress(true)}
            data-testid="save-and-submit"
          >
            <Send className="size-4" aria-hidden /> Create and submit…
          </Button>
        )}
      </div>
    </div>
  );
}
