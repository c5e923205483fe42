import { usersRoutes } from "@/lib/bff/areas/users/routes";

export const DELETE = usersRoutes.removePasskeys;
