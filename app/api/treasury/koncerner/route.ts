import { organizationRoutes } from "@/lib/bff/areas/organization/routes";

export const GET = organizationRoutes.koncerner;
