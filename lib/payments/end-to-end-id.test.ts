import { describe, expect, it } from "vitest";
import { newEndToEndId } from "./end-to-end-id";

describe("newEndToEndId", () => {
  it("is at most 35 characters of the ISO 20022 set, dated, and unique over many draws", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = newEndToEndId({ date: "2026-11-27" });
      expect(id.length).toBeLessThanOrEqual(35);
      expect(id).toMatch(/^E2E-20261127-[0-9A-HJKMNP-TV-Z]{10}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(5000);
  });
  it("draws again when the id is taken", () => {
    let call = 0;
    // First draw all zeros (taken), then all ones.
    const random = (n: number) => new Uint8Array(n).fill(call++ === 0 ? 0 : 1);
    const taken = new Set(["E2E-20261127-0000000000"]);
    expect(newEndToEndId({ date: "2026-11-27", taken, random })).toBe("E2E-20261127-1111111111");
  });
});
