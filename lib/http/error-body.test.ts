import { describe, expect, it } from "vitest";
import { errorBodyFields, readLenientJson } from "./error-body";

describe("readLenientJson", () => {
  it.each([
    ["JSON object", '{"error":"conflict"}', { error: "conflict" }],
    ["empty body", "", undefined],
    ["HTML error page", "<html>502 Bad Gateway</html>", undefined],
    ["cut-off JSON", '{"error":"confl', undefined],
  ])("%s", async (_name, text, expected) => {
    expect(await readLenientJson(new Response(text, { status: 502 }))).toEqual(expected);
  });
});

describe("errorBodyFields", () => {
  it("keeps the error shape's fields", () => {
    expect(
      errorBodyFields({
        error: "conflict",
        message: "Batch is not a draft",
        details: { state: "submitted" },
        request_id: "req-1",
      }),
    ).toEqual({
      error: "conflict",
      message: "Batch is not a draft",
      details: { state: "submitted" },
      requestId: "req-1",
    });
  });
  it("drops fields of the wrong type and never fails on odd bodies", () => {
    expect(errorBodyFields({ error: 409, message: null, details: ["x"], request_id: 7 })).toEqual({ details: {} });
    expect(errorBodyFields(undefined)).toEqual({ details: {} });
    expect(errorBodyFields("oops")).toEqual({ details: {} });
    expect(errorBodyFields([1, 2])).toEqual({ details: {} });
  });
});
