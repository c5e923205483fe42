"use client";

import { Modal } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import type { Draft } from "./use-users-admin";
import { DialogFooter } from "@/components/ui/dialog-footer";

const ROLE_OPTIONS = ["viewer", "treasurer", "approver", "admin"] as const;

const inputClass = (bad: boolean) =>
  `h-9 rounded-md border px-2 text-sm ${bad ? "border-red-500" : "border-slate-300"}`;

/** A company the admin can give access to. */
export interface UserCompany {
  id: string;
  name: string;
}

/**
 * The add / edit dialog of the users page: name, e-mail (fixed once the user exists), roles and companies, with the
 * server's field errors; `save` sends it, `setDraft(null)` closes it (not while `busy`).
 */
export function UserDialog({
  draft,
  setDraft,
  errors,
  busy,
  companies,
  save,
}: {
  draft: Draft;
  setDraft: (d: Draft | null) => void;
  errors: Record<string, string>;
  busy: boolean;
  companies: UserCompany[];
  save: (d: Draft) => Promise<void>;
}) {
  return (
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
        <DialogFooter
          onCancel={() => setDraft(null)}
          pending={busy}
          variant="primary"
          onAct={() => void save(draft)}
          testId="save-user"
        >
          {draft.id ? "Save" : "Add and invite"}
        </DialogFooter>
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
  );
}
