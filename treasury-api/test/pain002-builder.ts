/**
 * Writes ISO 20022 pain.002 Customer Payment Status Reports for tests (beside the camt builder): `buildPain002(doc)`
 * turns plain objects into a pain.002.001.03 or pain.002.001.10 document, elements in schema order
 * (GrpHdr, OrgnlGrpInfAndSts, OrgnlPmtInfAndSts/TxInfAndSts), every text escaped by fast-xml-parser's XMLBuilder.
 * `pain002For(pain001Xml, statuses)` reads a pain.001 (our export) and answers it as a bank would.
 */
import { XMLBuilder, XMLParser } from "fast-xml-parser";

export type Pain002Version = "03" | "10";

/** A status with its optional reason (`StsRsnInf/Rsn/Cd`) and the bank's words (`AddtlInf`). */
export interface Pain002Status {
  code: string;
  reason?: string;
  /** Proprietary reason (`Rsn/Prtry`) instead of an ISO code. */
  proprietaryReason?: string;
  info?: string[];
}

export interface Pain002Tx extends Pain002Status {
  endToEndId?: string;
  instructionId?: string;
  /** Omit the code: the transaction only repeats its id (the payment / group status applies). */
  noStatus?: boolean;
}

export interface Pain002Payment {
  paymentInformationId: string;
  status?: Pain002Status;
  txs?: Pain002Tx[];
}

export interface Pain002Doc {
  version?: Pain002Version;
  messageId: string;
  createdAt?: string;
  originalMessageId: string;
  groupStatus?: Pain002Status;
  payments?: Pain002Payment[];
  /** Write the namespace (default true). */
  namespace?: boolean;
}

function reasonInfo(s: Pain002Status): Record<string, unknown>[] {
  if (!s.reason && !s.proprietaryReason && !s.info?.length) return [];
  return [
    {
      ...(s.reason || s.proprietaryReason ? { Rsn: s.reason ? { Cd: s.reason } : { Prtry: s.proprietaryReason } } : {}),
      ...(s.info?.length ? { AddtlInf: s.info } : {}),
    },
  ];
}

/** The XML text of the report. */
export function buildPain002(doc: Pain002Doc): string {
  const version = doc.version ?? "03";
  const original = version === "03" ? "pain.001.001.03" : "pain.001.001.09";
  const body = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    Document: {
      ...(doc.namespace === false ? {} : { "@_xmlns": `urn:iso:std:iso:20022:tech:xsd:pain.002.001.${version}` }),
      CstmrPmtStsRpt: {
        GrpHdr: { MsgId: doc.messageId, CreDtTm: doc.createdAt ?? "2026-03-02T10:00:00+01:00" },
        OrgnlGrpInfAndSts: {
          OrgnlMsgId: doc.originalMessageId,
          OrgnlMsgNmId: original,
          ...(doc.groupStatus ? { GrpSts: doc.groupStatus.code, StsRsnInf: reasonInfo(doc.groupStatus) } : {}),
        },
        OrgnlPmtInfAndSts: (doc.payments ?? []).map((p) => ({
          OrgnlPmtInfId: p.paymentInformationId,
          ...(p.status ? { PmtInfSts: p.status.code, StsRsnInf: reasonInfo(p.status) } : {}),
          TxInfAndSts: (p.txs ?? []).map((t, i) => ({
            StsId: `STS-${i + 1}`,
            ...(t.instructionId ? { OrgnlInstrId: t.instructionId } : {}),
            ...(t.endToEndId ? { OrgnlEndToEndId: t.endToEndId } : {}),
            ...(t.noStatus ? {} : { TxSts: t.code, StsRsnInf: reasonInfo(t) }),
          })),
        })),
      },
    },
  };
  return new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true }).build(body) as string;
}

/**
 * The bank's pain.002 for one of our pain.001 files: one status per end-to-end id (missing ids are not listed).
 * @param pain001 the exported pain.001 XML
 * @param statuses end-to-end id → status
 */
export function pain002For(
  pain001: string,
  statuses: Record<string, Pain002Status>,
  opts: { version?: Pain002Version; messageId?: string; groupStatus?: Pain002Status } = {},
): string {
  const tree = new XMLParser({ parseTagValue: false, removeNSPrefix: true }).parse(pain001) as {
    Document: {
      CstmrCdtTrfInitn: {
        GrpHdr: { MsgId: string };
        PmtInf: {
          PmtInfId: string;
          CdtTrfTxInf: { PmtId: { EndToEndId: string } }[] | { PmtId: { EndToEndId: string } };
        };
      };
    };
  };
  const root = tree.Document.CstmrCdtTrfInitn;
  const txs = Array.isArray(root.PmtInf.CdtTrfTxInf) ? root.PmtInf.CdtTrfTxInf : [root.PmtInf.CdtTrfTxInf];
  return buildPain002({
    version: opts.version,
    messageId: opts.messageId ?? `STS-${root.GrpHdr.MsgId}`,
    originalMessageId: root.GrpHdr.MsgId,
    groupStatus: opts.groupStatus,
    payments: [
      {
        paymentInformationId: root.PmtInf.PmtInfId,
        txs: txs
          .map((t) => String(t.PmtId.EndToEndId))
          .filter((e2e) => statuses[e2e] !== undefined)
          .map((e2e) => ({ endToEndId: e2e, ...(statuses[e2e] as Pain002Status) })),
      },
    ],
  });
}
