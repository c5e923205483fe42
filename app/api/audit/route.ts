import { auditRoutes } from "@/lib/bff/areas/audit/routes";

export const GET = auditRoutes.list;
