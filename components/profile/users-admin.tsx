"use client";

import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { errorText } from "@/components/data/error-text";
import { UserDialog, type UserCompany } from "./user-dialog";
import { UsersTable } from "./users-table";
import { useUsersAdmin } from "./use-users-admin";

export type { UserCompany };

/**
 * The users page (admin, docs/users-and-notifications.md#users-in-the-browser): every user with roles, companies,
 * state and passkeys; add a user (an invitation link), change roles and companies, disable / enable, reset the
 * password (a new link), remove passkeys. Each write asks for a passkey confirmation when this admin's writes need
 * one; the server enforces every rule (own admin role, last admin, e-mail and name checks).
 */
export function UsersAdmin({ companies, currentUserId }: { companies: UserCompany[]; currentUserId: string }) {
  const { list, draft, setDraft, errors, setErrors, busy, link, setLink, confirm, setConfirm, save, act } =
    useUsersAdmin();
  const companyName = (id: string) => companies.find((c) => c.id === id)?.name ?? id.slice(0, 8);

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
      <UsersTable
        users={list.data.items}
        currentUserId={currentUserId}
        companyName={companyName}
        onEdit={(d) => {
          setErrors({});
          setDraft(d);
        }}
        onConfirm={setConfirm}
        act={act}
      />

      {draft && (
        <UserDialog draft={draft} setDraft={setDraft} errors={errors} busy={busy} companies={companies} save={save} />
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
