/** camt.052/053/054 documents built from a few fields, for tests that upload bank statements. */
export * from "@treasury/api/test/camt053-builder";
