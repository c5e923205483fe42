import { ledgerRoutes } from "@/lib/bff/areas/ledger/routes";

export const POST = ledgerRoutes.uploadStatements;
