/** The pain.001 builder lives in @treasury/contract (the local API pushes the same files over bank channels). */
export * from "@treasury/contract/pain001";
