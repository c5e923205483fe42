import { categoriesRoutes } from "@/lib/bff/areas/categories/routes";

export const PUT = categoriesRoutes.change;
export const DELETE = categoriesRoutes.remove;
