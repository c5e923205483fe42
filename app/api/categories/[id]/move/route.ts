import { categoriesRoutes } from "@/lib/bff/areas/categories/routes";

export const POST = categoriesRoutes.move;
