import { usersRoutes } from "@/lib/bff/areas/users/routes";

export const PATCH = usersRoutes.change;
