/**
 * The subset of JSON Schema the fuzz tests generate values from (docs/testing.md): the treasury-api's OpenAPI
 * document (`treasury-api/test/fuzz.test.ts`) and the dashboard's zod schemas as `z.toJSONSchema` writes them
 * (`lib/bff/dashboard-writes.fuzz.test.ts`).
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $defs?: Record<string, JsonSchema>;
}
