"use client";

import { Pencil, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { TextField } from "./field-error";
import { toggle, type GroupDraft } from "./policy-draft";
import type { PolicyActions } from "./use-policy-actions";
import { Form } from "@/components/ui/form";

/** The form of a new or edited approver group: its name and members; saved through `a.saveGroup`. */
function GroupForm({ a, group }: { a: PolicyActions; group: GroupDraft }) {
  return (
    <Form
      className="mt-3 space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
      aria-label="Approver group"
      onSubmit={(e) => {
        e.preventDefault();
        void a.saveGroup(group);
      }}
    >
      <TextField
        label="Group name"
        field="name"
        value={group.name}
        onChange={(name) => a.setGroup({ ...group, name })}
        errors={a.errors}
      />
      <fieldset className="flex flex-wrap gap-3 text-xs">
        <legend className="mb-1 text-slate-600">Members</legend>
        {a.view.users.map((u) => (
          <label key={u.id} className="inline-flex items-center gap-1">
            <input
              type="checkbox"
              checked={group.user_ids.includes(u.id)}
              onChange={() => a.setGroup({ ...group, user_ids: toggle(group.user_ids, u.id) })}
            />
            {u.name} <span className="text-slate-400">{u.email}</span>
            {u.approver ? null : <span className="text-amber-700">(not an approver)</span>}
          </label>
        ))}
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" pending={a.busy} data-testid="save-group">
          Save group
        </Button>
        <Button onClick={() => a.setGroup(null)}>Cancel</Button>
      </div>
    </Form>
  );
}

/** The approver groups with their members (edit, delete, "New group"), and the group form when one is open. */
export function GroupsSection({ a }: { a: PolicyActions }) {
  const { view } = a;
  return (
    <section aria-labelledby="groups-h">
      <div className="mb-2 flex items-center justify-between">
        <h2 id="groups-h" className="text-sm font-semibold text-slate-800">
          Approver groups
        </h2>
        <Button onClick={() => a.setGroup({ id: null, name: "", user_ids: [] })} data-testid="new-group">
          <Plus className="size-4" aria-hidden /> New group
        </Button>
      </div>
      {view.groups.length === 0 && !a.group && (
        <p className="text-[13px] text-slate-600" data-testid="groups-empty">
          No approver groups yet. A group names the people a rule may require approvals from (for example “Finance
          leads”); until there is one, every rule takes any approver.
        </p>
      )}
      <ul className="space-y-1 text-[13px]">
        {view.groups.map((g) => (
          <li key={g.id} className="flex items-center gap-2" data-testid="group-row" data-name={g.name}>
            <span className="font-medium">{g.name}</span>
            <span className="text-slate-500">
              {g.user_ids.map((id) => view.users.find((u) => u.id === id)?.name ?? "(removed user)").join(", ") ||
                "no members"}
            </span>
            <Button variant="ghost" aria-label={`Edit group: ${g.name}`} onClick={() => a.setGroup({ ...g })}>
              <Pencil className="size-4" aria-hidden />
            </Button>
            <Button
              variant="ghost"
              aria-label={`Delete group: ${g.name}`}
              disabled={a.busy}
              onClick={() => a.removeGroup(g)}
            >
              <Trash2 className="size-4" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      {a.group ? <GroupForm a={a} group={a.group} /> : null}
    </section>
  );
}
