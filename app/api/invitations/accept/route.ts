import { usersRoutes } from "@/lib/bff/areas/users/routes";

export const POST = usersRoutes.acceptInvitation;
