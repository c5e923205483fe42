"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bffFetch } from "@/components/data/bff-fetch";
import { errorText } from "@/components/data/error-text";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { Table, Td, Th } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";

interface AdminUser {
  id: string;
  email: string;
  name: string;
  roles: string[];
  disabled: boolean;
  passkeys: number;
}

const usersQuery = {
  queryKey: ["admin", "users"] as const,
  queryFn: () => bffFetch<{ items: AdminUser[] }>("/api/admin/users"),
};

/**
 * The users list of the admin page, with each user's passkey count and "Remove passkeys": removes all of them and
 * signs the user out everywhere (audited), so they sign in again and enrol a new device.
 */
export function UsersAdmin() {
  const qc = useQueryClient();
  const list = useQuery(usersQuery);
  const [target, setTarget] = useState<AdminUser | null>(null);
  const remove = useMutation({
    mutationFn: (u: AdminUser) =>
      bffFetch<{ removed: number }>(`/api/admin/users/${u.id}/passkeys`, {
        method: "DELETE",
        idempotencyKey: crypto.randomUUID(),
      }),
    onSuccess: (r, u) => {
      toast.success(`${r.removed} passkey${r.removed === 1 ? "" : "s"} of ${u.name} removed; their sessions ended.`);
      setTarget(null);
      void qc.invalidateQueries({ queryKey: usersQuery.queryKey });
    },
  });
  if (list.isPending) return <p className="text-[13px] text-slate-500">Loading…</p>;
  if (list.error) return <p role="alert">{errorText(list.error, "The users list")}</p>;
  return (
    <>
      <Table label="Users">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>E-mail</Th>
            <Th>Roles</Th>
            <Th align="right">Passkeys</Th>
            <Th align="right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((u) => (
            <tr key={u.id} data-testid={`user-row-${u.email}`}>
              <Td>
                {u.name}
                {u.disabled && <span className="ml-2 text-xs text-slate-500">(disabled)</span>}
              </Td>
              <Td>{u.email}</Td>
              <Td>{u.roles.join(", ")}</Td>
              <Td align="right" data-testid="passkey-count">
                {u.passkeys}
              </Td>
              <Td align="right">
                <Button variant="ghost" disabled={u.passkeys === 0} onClick={() => setTarget(u)}>
                  Remove passkeys
                </Button>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {target && (
        <Modal
          open
          onOpenChange={(o) => !o && !remove.isPending && setTarget(null)}
          title={`Remove every passkey of ${target.name}?`}
          description={
            `${target.passkeys} passkey${target.passkeys === 1 ? "" : "s"} will be removed and ${target.name} is ` +
            "signed out everywhere. They sign in again and add a new passkey. This is kept in the audit log."
          }
          testId="remove-user-passkeys-dialog"
          footer={
            <>
              <Button onClick={() => setTarget(null)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button
                variant="danger"
                pending={remove.isPending}
                onClick={() => remove.mutate(target)}
                data-testid="confirm-remove-user-passkeys"
              >
                Remove passkeys
              </Button>
            </>
          }
        >
          {remove.error && (
            <p role="alert" className="text-[13px] text-red-700">
              {errorText(remove.error, "Removing the passkeys")}
            </p>
          )}
        </Modal>
      )}
    </>
  );
}
