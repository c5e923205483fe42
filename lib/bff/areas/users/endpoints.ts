/**
 * The users area's BFF endpoints (docs/users-and-notifications.md#users-in-the-browser): the admin's user list and
 * writes, and the invitation link's acceptance. Isomorphic: the browser derives its URLs and query keys from these.
 */
import type { AdminUserView } from "@/lib/db/user-admin";
import { endpoint } from "../../endpoint";

/** A dashboard user as the admin's list shows it: the user (lib/db/user-admin.ts), with invitation and passkeys. */
export interface AdminUser extends AdminUserView {
  invitation_open: boolean;
  passkeys: number;
}

/** The answer of a write that issues an invitation or reset link (shown once to the admin). */
export interface IssuedInvitation {
  invitation_url: string;
  expires_at: string;
  emailed?: boolean;
}

export const usersEndpoints = {
  list: endpoint("GET", "/api/admin/users").returns<{ items: AdminUser[] }>(),
  invite: endpoint("POST", "/api/admin/users").returns<IssuedInvitation>(),
  change: endpoint("PATCH", "/api/admin/users/[id]"),
  removePasskeys: endpoint("DELETE", "/api/admin/users/[id]/passkeys").returns<{ id: string; removed: number }>(),
  resetPassword: endpoint("POST", "/api/admin/users/[id]/password-reset").returns<IssuedInvitation>(),
  acceptInvitation: endpoint("POST", "/api/invitations/accept").returns<{ email: string }>(),
};
