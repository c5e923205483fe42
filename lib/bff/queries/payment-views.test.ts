/** Who created a batch, as the batch views name it (`creatorOfBatch`): a person or an integration, never guessed. */
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { creatorOfBatch } from "./payment-views";

const names = new Map([
  ["tina@example.com", "Tina Treasurer"],
  ["id:0b6f5c1e-user", "tina@example.com"],
]);

describe("creatorOfBatch", () => {
  it("names the dashboard user of the audit entry, a person", () => {
    expect(creatorOfBatch("tina@example.com", "any-client", names)).toEqual({
      created_by: "tina@example.com",
      created_by_name: "Tina Treasurer",
      created_by_kind: "person",
    });
  });
  it("finds a dashboard user by the initiator's user id, or takes an e-mail initiator as a person", () => {
    expect(creatorOfBatch(null, "0B6F5C1E-user", names)).toMatchObject({
      created_by: "tina@example.com",
      created_by_kind: "person",
    });
    expect(creatorOfBatch(null, "ola@example.com", names)).toEqual({
      created_by: "ola@example.com",
      created_by_name: null,
      created_by_kind: "person",
    });
  });
  it("calls any other initiator an API client, and knows nobody without either", () => {
    expect(creatorOfBatch(null, "erp-integration", names)).toEqual({
      created_by: "erp-integration",
      created_by_name: "API client erp-integration",
      created_by_kind: "api_client",
    });
    expect(creatorOfBatch(null, null, names)).toEqual({
      created_by: null,
      created_by_name: null,
      created_by_kind: null,
    });
  });
});
