import { categoriesRoutes } from "@/lib/bff/areas/categories/routes";

export const GET = categoriesRoutes.list;
export const POST = categoriesRoutes.add;
