/** A webhook receiver on loopback that records the deliveries it gets, for tests of webhook subscriptions. */
export * from "@treasury/api/webhooks/loopback-receiver";
