"use client";

import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { confirmWithPasskey, StepUpError, useStepUpStatus } from "@/components/auth/step-up";
import { fieldErrors } from "@/components/counterparties/use-counterparty-write";
import { callBff, endpointQuery } from "@/components/data/bff-fetch";
import { usersEndpoints, type AdminUser } from "@/lib/bff/areas/users/endpoints";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { Table, Td, Th } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { Form } from "@/components/ui/form";

const ROLE_OPTIONS = ["viewer", "treasurer", "approver", "admin"] as const;

/** A company the admin can give access to. */
export interface UserCompany {
  id: string;
  name: string;
}

/** What the add / edit dialog holds; `id` null for a new user. */
interface Draft {
  id: string | null;
  name: string;
  email: string;
  roles: string[];
  allCompanies: boolean;
  companyIds: string[];
}

/** A link just issued, shown once to the admin (and e-mailed when SMTP is on). */
interface IssuedLink {
  name: string;
  url: string;
  expiresAt: string;
  emailed?: boolean;
}

const usersQuery = endpointQuery(usersEndpoints.list);

const inputClass = (bad: boolean) =>
  `h-9 rounded-md border px-2 text-sm ${bad ? "border-red-500" : "border-slate-300"}`;

/**
 * The users page (admin, docs/users-and-notifications.md#users-in-the-browser): every user with roles, companies,
 * state and passkeys; add a user (an invitation link), change roles and companies, disable / enable, reset the
 * password (a new link), remove passkeys. Each write asks for a passkey confirmation when this admin's writes need
 * one; the server enforces every rule (own admin role, last admin, e-mail and name checks).
 */
export function UsersAdmin({ companies, currentUserId }: { companies: UserCompany[]; currentUserId: string }) {
  const qc = useQueryClient();
  const list = useQuery(usersQuery);
  const stepUp = useStepUpStatus();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [confirm, setConfirm] = useState<{ user: AdminUser; kind: "disable" | "reset" | "passkeys" } | null>(null);
  const companyName = (id: string) => companies.find((c) => c.id === id)?.name ?? id.slice(0, 8);

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

  const act = async (u: AdminUser, kind: "disable" | "reset" | "passkeys") => {
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

  if (list.isPending) return <p className="text-[13px] text-slate-500">Loading…</p>;
  if (list.error) return <p role="alert">{errorText(list.error, "The users list")}</p>;
  return (
    <>
      <div className="mb-3 flex justify-end">
        <Button
          variant="primary"
          data-testid="add-user"
          onClick={() => {
            setErrors({});
            setDraft({ id: null, name: "", email: "", roles: ["viewer"], allCompanies: true, companyIds: [] });
          }}
        >
          Add user
        </Button>
      </div>
      <Table label="Users">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>E-mail</Th>
            <Th>Roles</Th>
            <Th>Companies</Th>
            <Th align="right">Passkeys</Th>
            <Th align="right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((u) => (
            <tr key={u.id} data-testid={`user-row-${u.email}`}>
              <Td className="xl:whitespace-nowrap">
                {u.name}
                {u.disabled && <span className="ml-2 text-xs text-slate-600">(disabled)</span>}
                {!u.disabled && u.invitation_open && <span className="ml-2 text-xs text-slate-600">(invited)</span>}
              </Td>
              <Td>{u.email}</Td>
              <Td>{u.roles.join(", ")}</Td>
              <Td>{u.company_ids === null ? "All" : u.company_ids.map(companyName).join(", ") || "None"}</Td>
              <Td align="right" data-testid="passkey-count">
                {u.passkeys}
              </Td>
              <Td align="right">
                {/* One line of actions on a wide screen (rows stay one line tall); they wrap only on a narrow one. */}
                <div
                  className="flex flex-wrap justify-end gap-1 whitespace-nowrap xl:flex-nowrap"
                  data-testid="user-actions"
                >
                  <Button
                    variant="ghost"
                    aria-label={`Edit ${u.name}`}
                    onClick={() => {
                      setErrors({});
                      setDraft({
                        id: u.id,
                        name: u.name,
                        email: u.email,
                        roles: u.roles,
                        allCompanies: u.company_ids === null,
                        companyIds: u.company_ids ?? [],
                      });
                    }}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="ghost"
                    disabled={u.id === currentUserId && !u.disabled}
                    aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.name}`}
                    onClick={() => (u.disabled ? void act(u, "disable") : setConfirm({ user: u, kind: "disable" }))}
                  >
                    {u.disabled ? "Enable" : "Disable"}
                  </Button>
                  <Button
                    variant="ghost"
                    disabled={u.disabled}
                    aria-label={`Reset the password of ${u.name}`}
                    onClick={() => setConfirm({ user: u, kind: "reset" })}
                  >
                    Reset password
                  </Button>
                  <Button
                    variant="ghost"
                    disabled={u.passkeys === 0}
                    aria-label={`Remove the passkeys of ${u.name}`}
                    onClick={() => setConfirm({ user: u, kind: "passkeys" })}
                  >
                    Remove passkeys
                  </Button>
                </div>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>

      {draft && (
        <Modal
          open
          onOpenChange={(o) => !o && !busy && setDraft(null)}
          title={draft.id ? `Edit ${draft.name}` : "Add a user"}
          description={
            draft.id
              ? "A change of roles or companies signs the user out everywhere."
              : "The new user gets a link to set their password: valid 72 hours, once, for this e-mail address."
          }
          testId="user-dialog"
          footer={
            <>
              <Button onClick={() => setDraft(null)} disabled={busy}>
                Cancel
              </Button>
              <Button variant="primary" pending={busy} onClick={() => void save(draft)} data-testid="save-user">
                {draft.id ? "Save" : "Add and invite"}
              </Button>
            </>
          }
        >
          <Form
            className="space-y-3"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void save(draft);
            }}
          >
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Name
              <input
                className={inputClass(!!errors.name)}
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                aria-invalid={errors.name ? true : undefined}
                data-testid="user-name"
              />
              {errors.name && <span className="font-normal text-red-700">Name {errors.name}</span>}
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              E-mail
              <input
                type="email"
                className={inputClass(!!errors.email)}
                value={draft.email}
                disabled={draft.id !== null}
                onChange={(e) => setDraft({ ...draft, email: e.target.value })}
                aria-invalid={errors.email ? true : undefined}
                data-testid="user-email"
              />
              {errors.email && <span className="font-normal text-red-700">E-mail {errors.email}</span>}
            </label>
            <fieldset>
              <legend className="mb-1 text-xs font-medium text-slate-700">Roles</legend>
              <div className="flex flex-wrap gap-3">
                {ROLE_OPTIONS.map((r) => (
                  <label key={r} className="inline-flex items-center gap-1.5 text-sm">
                    <input
                      type="checkbox"
                      checked={draft.roles.includes(r)}
                      data-testid={`user-role-${r}`}
                      onChange={(e) =>
                        setDraft({
                          ...draft,
                          roles: e.target.checked ? [...draft.roles, r] : draft.roles.filter((x) => x !== r),
                        })
                      }
                    />
                    {r}
                  </label>
                ))}
              </div>
              {errors.roles && <p className="text-xs text-red-700">Roles: {errors.roles}</p>}
            </fieldset>
            <fieldset>
              <legend className="mb-1 text-xs font-medium text-slate-700">Companies</legend>
              <label className="inline-flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={draft.allCompanies}
                  data-testid="user-all-companies"
                  onChange={(e) => setDraft({ ...draft, allCompanies: e.target.checked })}
                />
                All companies
              </label>
              {!draft.allCompanies && (
                <div className="mt-1 grid gap-1">
                  {companies.map((c) => (
                    <label key={c.id} className="inline-flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        checked={draft.companyIds.includes(c.id)}
                        data-testid={`user-company-${c.name}`}
                        onChange={(e) =>
                          setDraft({
                            ...draft,
                            companyIds: e.target.checked
                              ? [...draft.companyIds, c.id]
                              : draft.companyIds.filter((x) => x !== c.id),
                          })
                        }
                      />
                      {c.name}
                    </label>
                  ))}
                </div>
              )}
              {errors.company_ids && <p className="text-xs text-red-700">Companies: {errors.company_ids}</p>}
            </fieldset>
          </Form>
        </Modal>
      )}

      {confirm && (
        <Modal
          open
          onOpenChange={(o) => !o && !busy && setConfirm(null)}
          title={
            confirm.kind === "disable"
              ? `Disable ${confirm.user.name}?`
              : confirm.kind === "reset"
                ? `Reset the password of ${confirm.user.name}?`
                : `Remove every passkey of ${confirm.user.name}?`
          }
          description={
            confirm.kind === "disable"
              ? "They are signed out everywhere, cannot sign in, and an open invitation stops working."
              : confirm.kind === "reset"
                ? "Their password stops working now, they are signed out everywhere, and they get a new link (72 h)."
                : `${confirm.user.passkeys} passkey${confirm.user.passkeys === 1 ? "" : "s"} will be removed and ` +
                  `${confirm.user.name} is signed out everywhere. This is kept in the audit log.`
          }
          testId={confirm.kind === "passkeys" ? "remove-user-passkeys-dialog" : `user-${confirm.kind}-dialog`}
          footer={
            <>
              <Button onClick={() => setConfirm(null)} disabled={busy}>
                Cancel
              </Button>
              <Button
                variant="danger"
                pending={busy}
                onClick={() => void act(confirm.user, confirm.kind)}
                data-testid={
                  confirm.kind === "passkeys" ? "confirm-remove-user-passkeys" : `confirm-user-${confirm.kind}`
                }
              >
                {confirm.kind === "disable"
                  ? "Disable"
                  : confirm.kind === "reset"
                    ? "Reset password"
                    : "Remove passkeys"}
              </Button>
            </>
          }
        />
      )}

      {link && (
        <Modal
          open
          onOpenChange={(o) => !o && setLink(null)}
          title={`Link for ${link.name}`}
          description={
            (link.emailed ? "It was sent by e-mail. " : "E-mail is off: send this link yourself. ") +
            `It sets the password once and works until ${new Date(link.expiresAt).toLocaleString()}.`
          }
          testId="invitation-link-dialog"
          footer={<Button onClick={() => setLink(null)}>Done</Button>}
        >
          <input
            readOnly
            aria-label="Invitation link"
            className="h-9 w-full rounded-md border border-slate-300 px-2 font-mono text-xs"
            value={link.url}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="invitation-url"
          />
        </Modal>
      )}
    </>
  );
}
