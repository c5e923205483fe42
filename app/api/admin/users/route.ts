import { usersRoutes } from "@/lib/bff/areas/users/routes";

export const GET = usersRoutes.list;
export const POST = usersRoutes.invite;
