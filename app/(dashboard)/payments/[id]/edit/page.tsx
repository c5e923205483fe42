import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { Uuid } from "@treasury/contract";
import { can } from "@/lib/auth/roles";
import { loadData, loadPage } from "@/lib/bff/page";
import { companyCall } from "@/lib/bff/context";
import { paymentRunForm } from "@/lib/bff/queries/payment-run";
import { collectAll } from "@/lib/treasury-client";
import { treasury } from "@/lib/server/treasury";
import { batchFormValues } from "@/components/payments/batch-form-schema";
import { NewBatchForm } from "@/components/payments/new-batch-form";
import { batchLabel } from "@/components/payments/batch-name";
import { PageHeader, ProblemState } from "@/components/ui/states";
import { PageProblem } from "@/components/ui/page-problem";
import { BackLink } from "@/components/ui/back-link";

export const metadata: Metadata = { title: "Edit payment batch" };

/** Edit a batch not yet submitted (treasurer), when the API offers editing; otherwise says why not. */
export default async function EditBatchPage({ params }: { params: Promise<{ id: string }> }) {
  const load = await loadPage("payments", { company: "required" });
  if (!load.ok) return <PageProblem load={load} />;
  const { ctx } = load;
  const { id } = await params;
  if (!Uuid.safeParse(id).success) notFound();
  if (!can(ctx.user.roles, "payments.write"))
    return <ProblemState kind="forbidden" title="No access" message="Only treasurers edit payment batches." />;
  const data = await loadData(ctx, async () => {
    const call = companyCall(ctx);
    const [form, batch, instructions] = await Promise.all([
      paymentRunForm(ctx),
      treasury().getBatch(call, id),
      collectAll(treasury().listBatchInstructions(call, id, { pageSize: 1000 }), { maxPages: 20 }),
    ]);
    return { form, batch, instructions };
  });
  if (!data.ok) return <PageProblem load={data} />;
  const { form, batch, instructions } = data.data;
  const back = (
    <BackLink href={`/payments/${id}`} icon={ArrowLeft}>
      {batchLabel(id, batch.reference)}
    </BackLink>
  );
  if (batch.status !== "created" || !form.support.edit)
    return (
      <div className="max-w-6xl">
        {back}
        <ProblemState
          title="This batch cannot be edited"
          message={
            batch.status !== "created"
              ? "It has been submitted; only a batch not yet submitted can be changed."
              : "The connected Treasury API does not offer editing a batch (its OpenAPI document does not list it)."
          }
        />
      </div>
    );
  return (
    <div className="max-w-6xl">
      {back}
      <PageHeader
        title={`Edit ${batch.reference?.trim() ? `“${batch.reference.trim()}”` : batchLabel(id, null)}`}
        description="Saving replaces the batch's instructions; it stays unsubmitted until you submit it."
      />
      <NewBatchForm
        key={id}
        companyId={ctx.company.id}
        companyName={ctx.company.name}
        currencies={[batch.currency]}
        today={form.today}
        accounts={form.accounts}
        payees={form.payees}
        support={form.support}
        edit={{ batchId: id, values: batchFormValues(batch, instructions) }}
      />
    </div>
  );
}
