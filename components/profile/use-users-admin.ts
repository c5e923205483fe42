"use client";

import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { fieldErrors } from "@/components/counterparties/use-counterparty-write";
import { callBff, endpointQuery } from "@/components/data/bff-fetch";
import { usersEndpoints, type AdminUser } from "@/lib/bff/areas/users/endpoints";
import { errorText } from "@/components/data/error-text";
import { toast } from "@/components/ui/toast";

/** What the add / edit dialog holds; `id` null for a new user. */
export interface Draft {
  id: string | null;
  name: string;
  email: string;
  roles: string[];
  allCompanies: boolean;
  companyIds: string[];
}

/** A link just issued, shown once to the admin (and e-mailed when SMTP is on). */
export interface IssuedLink {
  name: string;
  url: string;
  expiresAt: string;
  emailed?: boolean;
}

/** A write of a row's actions that is confirmed first. */
export type UserAction = "disable" | "reset" | "passkeys";

const usersQuery = endpointQuery(usersEndpoints.list);

/**
 * The users page's state and writes (docs/users-and-notifications.md#users-in-the-browser): the list, the user being
 * edited (`draft`) with the field errors of the last refused save, the action awaiting confirmation, the link just
 * issued, and `save` / `act`, each confirmed with a passkey first when this admin's writes need one.
 */
export function useUsersAdmin() {
  const qc = useQueryClient();
  const list = useQuery(usersQuery);
  const stepUp = useStepUpStatus();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [confirm, setConfirm] = useState<{ user: AdminUser; kind: UserAction } | null>(null);

  /** One write: the passkey confirmation covering `subject` when needed, then `f` with its headers. */
  const run = async (what: string, subject: string, f: (headers: Record<string, string>) => Promise<void>) => {
    setBusy(true);
    setErrors({});
    try {
      const headers = await confirmWithPasskey({ action: "user.manage", subjects: [subject] }, stepUp.data);
      await f(headers);
      await qc.invalidateQueries({ queryKey: usersQuery.queryKey });
      return true;
    } catch (err) {
      setErrors(fieldErrors(err));
      toast.error(err instanceof StepUpError ? `${what}: ${err.message}` : errorText(err, what));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async (d: Draft) => {
    const body = { name: d.name, roles: d.roles, company_ids: d.allCompanies ? null : d.companyIds };
    await run(d.id ? "Saving the user" : "Adding the user", d.id ?? "new_user", async (headers) => {
      if (d.id) {
        await callBff(usersEndpoints.change, {
          params: { id: d.id },
          body,
          headers,
          idempotencyKey: crypto.randomUUID(),
        });
        toast.success(`${d.name} saved.`);
      } else {
        const r = await callBff(usersEndpoints.invite, {
          body: { ...body, email: d.email },
          headers,
          idempotencyKey: crypto.randomUUID(),
        });
        setLink({ name: d.name, url: r.invitation_url, expiresAt: r.expires_at, emailed: r.emailed });
      }
      setDraft(null);
    });
  };

  const act = async (u: AdminUser, kind: UserAction) => {
    const ok = await run(kind === "reset" ? "Resetting the password" : "Saving the user", u.id, async (headers) => {
      const idempotencyKey = crypto.randomUUID();
      if (kind === "disable") {
        await callBff(usersEndpoints.change, {
          params: { id: u.id },
          body: { disabled: !u.disabled },
          headers,
          idempotencyKey,
        });
        toast.success(u.disabled ? `${u.name} enabled.` : `${u.name} disabled; their sessions ended.`);
      } else if (kind === "reset") {
        const r = await callBff(usersEndpoints.resetPassword, { params: { id: u.id }, headers, idempotencyKey });
        setLink({ name: u.name, url: r.invitation_url, expiresAt: r.expires_at, emailed: r.emailed });
      } else {
        const r = await callBff(usersEndpoints.removePasskeys, {
          params: { id: u.id },
          headers,
          idempotencyKey,
        });
        toast.success(`${r.removed} passkey${r.removed === 1 ? "" : "s"} of ${u.name} removed; their sessions ended.`);
      }
    });
    if (ok) setConfirm(null);
  };

  return { list, draft, setDraft, errors, setErrors, busy, link, setLink, confirm, setConfirm, save, act };
}
