"use client";

import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import type { AdminUser } from "@/lib/bff/areas/users/endpoints";
import type { Draft, UserAction } from "./use-users-admin";

/**
 * The users table: name and state, e-mail, roles, companies (`companyName` of each id), passkeys, and each row's
 * actions (edit opens `onEdit` with the user as a draft; disable, reset and remove passkeys ask `onConfirm` first;
 * enabling acts at once through `act`). An admin cannot disable themself (`currentUserId`).
 */
export function UsersTable({
  users,
  currentUserId,
  companyName,
  onEdit,
  onConfirm,
  act,
}: {
  users: AdminUser[];
  currentUserId: string;
  companyName: (id: string) => string;
  onEdit: (d: Draft) => void;
  onConfirm: (c: { user: AdminUser; kind: UserAction }) => void;
  act: (u: AdminUser, kind: UserAction) => Promise<void>;
}) {
  return (
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
        {users.map((u) => (
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
                  onClick={() =>
                    onEdit({
                      id: u.id,
                      name: u.name,
                      email: u.email,
                      roles: u.roles,
                      allCompanies: u.company_ids === null,
                      companyIds: u.company_ids ?? [],
                    })
                  }
                >
                  Edit
                </Button>
                <Button
                  variant="ghost"
                  disabled={u.id === currentUserId && !u.disabled}
                  aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.name}`}
                  onClick={() => (u.disabled ? void act(u, "disable") : onConfirm({ user: u, kind: "disable" }))}
                >
                  {u.disabled ? "Enable" : "Disable"}
                </Button>
                <Button
                  variant="ghost"
                  disabled={u.disabled}
                  aria-label={`Reset the password of ${u.name}`}
                  onClick={() => onConfirm({ user: u, kind: "reset" })}
                >
                  Reset password
                </Button>
                <Button
                  variant="ghost"
                  disabled={u.passkeys === 0}
                  aria-label={`Remove the passkeys of ${u.name}`}
                  onClick={() => onConfirm({ user: u, kind: "passkeys" })}
                >
                  Remove passkeys
                </Button>
              </div>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
