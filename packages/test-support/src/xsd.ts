/** Validation of generated ISO 20022 documents against the official XSDs (xmllint), as the API's tests use it. */
export * from "@treasury/api/test/xsd";
