"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toast";
import type { CounterpartyView } from "@/lib/views/counterparties";
import { errorText } from "@/components/data/error-text";
import { Modal } from "@/components/ui/dialog";
import { Field, ReasonField } from "./field";
import { formatIban } from "./status-badge";
import { counterpartiesEndpoints } from "@/lib/bff/areas/counterparties/endpoints";
import { fieldErrors, useCounterpartyWrite } from "./use-counterparty-write";
import { DialogFooter } from "@/components/ui/dialog-footer";

const EMPTY = { name: "", iban: "", bic: "", country: "", lei: "", orgnr: "", defaultRemittance: "" };

/**
 * Create a counterparty (`counterparty` null) or change the bank details of
 * one. Either way it waits in "pending verification" until a second person
 * verifies it; the server checks every field (IBAN check digits, BIC of the
 * IBAN's country, LEI) and its messages appear under the field.
 */
export function CounterpartyFormDialog({
  counterparty,
  onClose,
}: {
  counterparty: CounterpartyView | null;
  onClose: () => void;
}) {
  const editing = counterparty !== null;
  const [v, setV] = useState(
    editing ? { ...EMPTY, iban: formatIban(counterparty.iban), bic: counterparty.bic ?? "" } : EMPTY,
  );
  const [reason, setReason] = useState("");
  const m = useCounterpartyWrite(
    editing ? counterpartiesEndpoints.bankDetails : counterpartiesEndpoints.create,
    editing ? { id: counterparty.id } : undefined,
    (c) => {
      toast.success(
        editing
          ? `New bank details of ${c.name} saved; a second person must verify them.`
          : `${c.name} created; a second person must verify it.`,
      );
      onClose();
    },
  );
  const errs = fieldErrors(m.error);
  const general = m.error && Object.keys(errs).length === 0 ? errorText(m.error, "Saving the counterparty") : null;
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setV((prev) => ({ ...prev, [k]: e.target.value }));
  const submit = () =>
    m.mutate(
      editing
        ? { iban: v.iban, bic: v.bic || null, reason, expectedVersion: counterparty.version }
        : {
            name: v.name,
            iban: v.iban,
            bic: v.bic || null,
            country: v.country || null,
            lei: v.lei || null,
            orgnr: v.orgnr || null,
            defaultRemittance: v.defaultRemittance || null,
          },
    );

  return (
    <Modal
      open
      onOpenChange={(o) => !o && !m.isPending && onClose()}
      title={editing ? `Change bank details of ${counterparty.name}` : "New counterparty"}
      testId="counterparty-form"
      description={
        editing
          ? "The counterparty returns to pending verification; the old and new details stay in its history. " +
            "Someone other than you must verify the change."
          : "The counterparty is pending until someone other than you verifies it (for instance by calling back " +
            "on a known number)."
      }
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={m.isPending}
          variant="primary"
          onAct={submit}
          testId="save-counterparty"
        >
          {m.isPending ? "Saving…" : editing ? "Save new bank details" : "Create counterparty"}
        </DialogFooter>
      }
    >
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {!editing && (
          <div className="sm:col-span-2">
            <Field label="Name" value={v.name} onChange={set("name")} error={errs.name} maxLength={140} autoFocus />
          </div>
        )}
        <div className="sm:col-span-2">
          <Field
            label={editing ? "New IBAN" : "IBAN"}
            value={v.iban}
            onChange={set("iban")}
            error={errs.iban}
            mono
            autoComplete="off"
            spellCheck={false}
            data-testid="counterparty-iban"
          />
        </div>
        <Field
          label="BIC (optional)"
          value={v.bic}
          onChange={set("bic")}
          error={errs.bic}
          mono
          autoComplete="off"
          spellCheck={false}
        />
        {!editing && (
          <>
            <Field
              label="Country (optional)"
              value={v.country}
              onChange={set("country")}
              error={errs.country}
              hint="Two letters; the IBAN's country when empty"
              maxLength={2}
            />
            <Field label="LEI (optional)" value={v.lei} onChange={set("lei")} error={errs.lei} mono />
            <Field label="Organization number (optional)" value={v.orgnr} onChange={set("orgnr")} error={errs.orgnr} />
            <div className="sm:col-span-2">
              <Field
                label="Default remittance text (optional)"
                value={v.defaultRemittance}
                onChange={set("defaultRemittance")}
                error={errs.defaultRemittance}
                maxLength={140}
              />
            </div>
          </>
        )}
        {editing && (
          <div className="sm:col-span-2">
            <ReasonField
              value={reason}
              onChange={setReason}
              error={errs.reason}
              label="Why do the details change?"
              placeholder="e.g. Supplier's letter of 3 March, confirmed by phone"
            />
          </div>
        )}
        {general && (
          <p role="alert" className="text-[13px] text-red-700 sm:col-span-2">
            {general}
          </p>
        )}
        <button type="submit" className="hidden" aria-hidden tabIndex={-1} />
      </form>
    </Modal>
  );
}
