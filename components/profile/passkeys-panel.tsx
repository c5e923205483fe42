"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { KeyRound, Pencil, Plus, Trash2 } from "lucide-react";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { callBff, endpointQuery } from "@/components/data/bff-fetch";
import { sessionEndpoints, type Passkey } from "@/lib/bff/areas/session/endpoints";
import { errorText } from "@/components/data/error-text";
import { promptDismissed, stepUpStatusQuery, useStepUpStatus } from "@/components/auth/step-up";
import type { StepUpMode } from "@/lib/auth/step-up-rules";
import { PasskeyBanner } from "@/components/auth/step-up-notice";
import { Timestamp } from "@/components/format/business-date";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { Table, Td, Th } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { Form } from "@/components/ui/form";
import { DialogFooter } from "@/components/ui/dialog-footer";

/** The signed-in user's passkeys (GET /api/session/passkeys). */
const passkeysQuery = endpointQuery(sessionEndpoints.passkeys);

const MODE_WORDS = {
  required:
    "Approving, rejecting, verifying counterparties and changing approval policies need a passkey confirmation.",
  optional:
    "Once you add a passkey, approving, rejecting, verifying counterparties and changing approval policies need it.",
  off: "Passkey confirmation is switched off on this dashboard.",
} as const;

/** Enrols a passkey: options from the server, the browser's prompt, then the server's check. */
async function enrol(name: string): Promise<Passkey> {
  const opts = await callBff<
    string,
    unknown,
    { challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }
  >(sessionEndpoints.registrationOptions, { idempotencyKey: crypto.randomUUID() });
  let response;
  try {
    response = await startRegistration({ optionsJSON: opts.options });
  } catch (err) {
    if (promptDismissed(err)) throw new Error("Adding the passkey was cancelled.");
    throw new Error(`Your device could not create a passkey: ${err instanceof Error ? err.message : String(err)}`);
  }
  return callBff(sessionEndpoints.registrationVerify, {
    body: { challenge_id: opts.challenge_id, name, response },
    idempotencyKey: crypto.randomUUID(),
  });
}

/** The inline form that renames `passkey` (`renaming`: the name being typed), with its error. */
function RenameForm({
  passkey: p,
  renaming,
  setRenaming,
  rename,
}: {
  passkey: Passkey;
  renaming: { id: string; name: string };
  setRenaming: (r: { id: string; name: string } | null) => void;
  rename: UseMutationResult<Passkey, Error, { id: string; name: string }>;
}) {
  return (
    <Form
      className="flex flex-wrap items-center gap-2"
      aria-label={`Rename passkey ${p.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(renaming);
      }}
    >
      <input
        autoFocus
        value={renaming.name}
        onChange={(e) => setRenaming({ id: p.id, name: e.target.value })}
        maxLength={100}
        aria-label="New name"
        className="h-8 w-48 rounded-md border border-slate-300 px-2 text-[13px]"
        data-testid="passkey-rename-input"
      />
      <Button type="submit" variant="primary" pending={rename.isPending} data-testid="save-rename">
        Save
      </Button>
      <Button onClick={() => (setRenaming(null), rename.reset())} disabled={rename.isPending}>
        Cancel
      </Button>
      {rename.error && (
        <span role="alert" className="w-full text-xs text-red-700">
          {errorText(rename.error, "Renaming the passkey")}
        </span>
      )}
    </Form>
  );
}

/** The confirmation before removing passkey `removing`, with the error of a failed removal. */
function RemoveDialog({
  removing,
  remove,
  onClose,
}: {
  removing: Passkey;
  remove: UseMutationResult<unknown, Error, Passkey>;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      onOpenChange={(o) => !o && !remove.isPending && onClose()}
      title={`Remove passkey “${removing.name}”?`}
      description="You can no longer confirm approvals with it."
      testId="remove-passkey-dialog"
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={remove.isPending}
          variant="danger"
          onAct={() => remove.mutate(removing)}
          testId="confirm-remove-passkey"
        >
          Remove
        </DialogFooter>
      }
    >
      {remove.error && (
        <p role="alert" className="text-[13px] text-red-700">
          {errorText(remove.error, "Removing the passkey")}
        </p>
      )}
    </Modal>
  );
}

/**
 * The profile page's passkeys: the step-up policy in words, the list (name, added, last used), "Add a passkey"
 * (the browser's WebAuthn prompt, named by the user), renaming (inline, PATCH /api/session/passkeys/{id}) and removal
 * of one's own passkeys.
 *
 * `mode` is the dashboard's step-up mode as the server page knows it (`DASHBOARD_STEP_UP`, docs/guides/auth.md#passkeys-and-step-up): the
 * policy sentence is in the first HTML at its final length, so nothing below it moves when the status query
 * arrives (a layout shift between a pointer's aim and its press once sent a click on "Add a passkey" past it).
 */
export function PasskeysPanel({ mode }: { mode: StepUpMode }) {
  const qc = useQueryClient();
  const list = useQuery(passkeysQuery);
  const status = useStepUpStatus();
  const [name, setName] = useState("");
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: passkeysQuery.queryKey });
    void qc.invalidateQueries({ queryKey: stepUpStatusQuery.queryKey });
  };
  const add = useMutation({
    mutationFn: () => enrol(name.trim() || `Passkey ${(list.data?.items.length ?? 0) + 1}`),
    onSuccess: (p) => {
      setName("");
      toast.success(`Passkey “${p.name}” added.`);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (p: Passkey) =>
      callBff(sessionEndpoints.removePasskey, { params: { id: p.id }, idempotencyKey: crypto.randomUUID() }),
    onSuccess: () => {
      toast.success("Passkey removed.");
      setRemoving(null);
      refresh();
    },
  });
  const rename = useMutation({
    mutationFn: (r: { id: string; name: string }) =>
      callBff(sessionEndpoints.renamePasskey, {
        params: { id: r.id },
        body: { name: r.name },
        idempotencyKey: crypto.randomUUID(),
      }),
    onSuccess: (p) => {
      toast.success(`Passkey renamed to “${p.name}”.`);
      setRenaming(null);
      rename.reset();
      refresh();
    },
  });
  const items = list.data?.items ?? [];
  return (
    <section aria-labelledby="passkeys-title" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="passkeys-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <KeyRound className="size-4" aria-hidden /> Passkeys
      </h2>
      <p className="mt-1 text-[13px] text-slate-600" data-testid="step-up-policy">
        {MODE_WORDS[status.data?.mode ?? mode]} A confirmation lasts 5 minutes and covers only the items shown when you
        gave it.
      </p>
      <div className="mt-3">
        <PasskeyBanner status={status.data} />
      </div>
      <Form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            placeholder="e.g. Work laptop"
            className="h-8 w-56 rounded-md border border-slate-300 px-2 text-[13px] font-normal"
            data-testid="passkey-name"
          />
        </label>
        <Button type="submit" variant="primary" pending={add.isPending} data-testid="add-passkey">
          <Plus className="size-3.5" aria-hidden /> Add a passkey
        </Button>
      </Form>
      {add.error && (
        <p role="alert" className="mt-2 text-[13px] text-red-700" data-testid="passkey-error">
          {errorText(add.error, "Adding the passkey")}
        </p>
      )}
      <div className="mt-4">
        {list.isPending ? (
          <p className="text-[13px] text-slate-500">Loading…</p>
        ) : items.length === 0 ? (
          <p className="text-[13px] text-slate-600" data-testid="no-passkeys">
            You have no passkey yet.
          </p>
        ) : (
          <Table label="Your passkeys" pinFirst={false}>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Added</Th>
                <Th>Last used</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody data-testid="passkey-list">
              {items.map((p) => (
                <tr key={p.id} data-testid="passkey-row">
                  <Td>
                    {renaming?.id === p.id ? (
                      <RenameForm passkey={p} renaming={renaming} setRenaming={setRenaming} rename={rename} />
                    ) : (
                      p.name
                    )}
                  </Td>
                  <Td>
                    <Timestamp value={p.createdAt} />
                  </Td>
                  <Td>{p.lastUsedAt ? <Timestamp value={p.lastUsedAt} /> : "never"}</Td>
                  <Td align="right">
                    <Button
                      variant="ghost"
                      onClick={() => (setRenaming({ id: p.id, name: p.name }), rename.reset())}
                      aria-label={`Rename passkey ${p.name}`}
                    >
                      <Pencil className="size-3.5" aria-hidden /> Rename
                    </Button>
                    <Button variant="ghost" onClick={() => setRemoving(p)} aria-label={`Remove passkey ${p.name}`}>
                      <Trash2 className="size-3.5" aria-hidden /> Remove
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
      {removing && <RemoveDialog removing={removing} remove={remove} onClose={() => setRemoving(null)} />}
    </section>
  );
}
