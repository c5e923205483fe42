import { describe, expect, it } from "vitest";
import { COMPONENT_MAX_LINES, FUNCTION_MAX_LINES, longFunctions } from "./function-lengths";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("longFunctions", () => {
  it("flags a component over 150 lines in a .tsx file, not one of 150", () => {
    const long = `export function Big() {\n${body(COMPONENT_MAX_LINES - 2)}\n  return null;\n}\n`;
    const ok = `export function Fine() {\n${body(COMPONENT_MAX_LINES - 3)}\n  return null;\n}\n`;
    expect(longFunctions("a.tsx", long)).toEqual([
      { path: "a.tsx", line: 1, name: "Big", lines: COMPONENT_MAX_LINES + 1, kind: "component" },
    ]);
    expect(longFunctions("a.tsx", ok)).toEqual([]);
  });

  it("holds other functions (and components' helpers) to 80 lines, named after their variable", () => {
    const src = `const helper = async () => {\n${body(FUNCTION_MAX_LINES - 1)}\n};\n`;
    expect(longFunctions("b.ts", src)).toMatchObject([
      { name: "helper", lines: FUNCTION_MAX_LINES + 1, kind: "function" },
    ]);
    // The same in a .tsx file with a lower-case name is still a function, not a component.
    expect(longFunctions("b.tsx", src)).toMatchObject([{ kind: "function" }]);
    // A capitalised function in a .ts file is not a React component.
    expect(longFunctions("c.ts", `function Big() {\n${body(FUNCTION_MAX_LINES)}\n}\n`)).toMatchObject([
      { name: "Big", kind: "function" },
    ]);
  });

  it("names a wrapped arrow by its variable and lists everything with `all`", () => {
    const src = `export const Row = memo(function () {\n  return 1;\n});\n`;
    expect(longFunctions("d.tsx", src)).toEqual([]);
    expect(longFunctions("d.tsx", src, true)).toMatchObject([{ name: "Row", lines: 3, kind: "component" }]);
  });
});
