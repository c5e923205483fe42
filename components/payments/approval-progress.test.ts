import { describe, expect, it } from "vitest";
import type { BatchView } from "@/lib/views/payments";
import { approvalHeadline, requiredApprovals } from "./approval-progress";

type V = Pick<BatchView, "approval" | "policy" | "batch">;
const anna = { email: "anna@example.com", name: "Anna Approver", at: "2026-11-23T06:16:37Z" };
const bo = { email: "bo@example.com", name: "Bo Lead", at: "2026-11-23T07:00:00Z" };

function view(over: Partial<NonNullable<V["approval"]>>, status = "approved", policy: V["policy"] = null): V {
  return {
    batch: { status } as V["batch"],
    policy,
    approval: {
      approval_id: "a1",
      state: null,
      required_count: null,
      approved_count: 0,
      approved_by: [],
      rejected_by: null,
      ...over,
    },
  };
}

describe("approvalHeadline", () => {
  it("reads '2 of 2 approvals' after the final approval, when the request has left the queue", () => {
    const v = view({ approved_count: 2, approved_by: [anna, bo] });
    expect(requiredApprovals(v)).toBe(2);
    expect(approvalHeadline(v)).toBe("2 of 2 approvals");
  });
  it("takes the count from the stored policy when the API no longer reports it", () => {
    const policy = { explanation: "Rule 1", required_count: 3, approvals: 1, held: 0 } as V["policy"];
    expect(approvalHeadline(view({ approved_count: 1, approved_by: [anna] }, "pending_approval", policy))).toBe(
      "1 of 3 approvals",
    );
  });
  it("uses the live count while pending", () => {
    expect(
      approvalHeadline(view({ required_count: 2, approved_count: 1, approved_by: [anna] }, "pending_approval")),
    ).toBe("1 of 2 approvals");
  });
  it("says Withdrawn when the creator rejected their own batch, Rejected otherwise", () => {
    expect(approvalHeadline(view({ rejected_by: { ...anna, withdrawn: true } }, "rejected"))).toBe(
      "Withdrawn by its creator",
    );
    expect(approvalHeadline(view({ rejected_by: anna }, "rejected"))).toBe("Rejected");
  });
  it("does not invent a count while pending without one", () => {
    expect(approvalHeadline(view({ approved_count: 1, approved_by: [anna] }, "pending_approval"))).toBe(
      "1 approval so far",
    );
  });
});

describe("requiredApprovals after the queue", () => {
  it("an approved batch that needed the API's two approvals under a one-approval policy shows 2 of 2", () => {
    const policy = { explanation: "Rule 2 (Default)", required_count: 1, approvals: 1, held: 0 } as V["policy"];
    const v = view({ approved_count: 2, approved_by: [anna, bo] }, "completed", policy);
    expect(requiredApprovals(v)).toBe(2);
    expect(approvalHeadline(v)).toBe("2 of 2 approvals");
  });
});

describe("a batch decided outside the dashboard", () => {
  const api = { created_by: "3f0c5a7e-client", created_by_kind: "api_client" as const };
  const person = { created_by: "tina@example.com", created_by_kind: "person" as const };
  it("goes by who created the batch, not by how the name reads", () => {
    // A person whose name happens to start like an integration's label is still a person.
    const named = {
      created_by: "api@example.com",
      created_by_name: "API client team",
      created_by_kind: "person" as const,
    };
    expect(approvalHeadline({ ...view({}, "completed"), ...named })).toBe(
      "Approved — approvers not recorded in the dashboard",
    );
  });
  it("says approved only once the batch is past approval, and how it was decided", () => {
    expect(approvalHeadline({ ...view({}, "completed"), ...api })).toBe("Approved through the API");
    expect(approvalHeadline({ ...view({}, "processing"), created_by: null })).toBe("Approved through the API");
    expect(approvalHeadline({ ...view({}, "completed"), ...person })).toBe(
      "Approved — approvers not recorded in the dashboard",
    );
    expect(approvalHeadline({ ...view({}, "rejected"), ...api })).toBe("Rejected through the API");
    expect(approvalHeadline({ ...view({}, "rejected"), ...person })).toBe("Rejected — not recorded in the dashboard");
  });
  it("a batch created through the API and still awaiting approval never reads 'approved'", () => {
    for (const who of [api, person, { created_by: null }]) {
      const pending = approvalHeadline({ ...view({}, "pending_approval"), ...who });
      expect(pending).toBe("Awaiting approval");
      expect(pending).not.toMatch(/approved/i);
      expect(approvalHeadline({ ...view({ required_count: 1 }, "pending_approval"), ...who })).toBe("0 of 1 approval");
    }
  });
});
