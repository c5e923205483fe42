import { ledgerRoutes } from "@/lib/bff/areas/ledger/routes";

export const GET = ledgerRoutes.exportTransactions;
