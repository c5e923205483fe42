import { groupRoutes } from "@/lib/bff/areas/group/routes";

export const GET = groupRoutes.report;
