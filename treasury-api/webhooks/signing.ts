/** Webhook signing (docs/treasury-api.md#webhooks): lives in @treasury/contract, which the dashboard's receiver shares. */
export * from "@treasury/contract/webhook-signing";
