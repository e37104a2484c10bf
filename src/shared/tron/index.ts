export { fromHexAddress, isValidTronAddress, toHexAddress } from "./address.js";
export {
  deriveTxId,
  EXPIRED_BELOW_MS,
  MAX_SIGNATURES,
  MAX_TIME_LEFT_MS,
  MIN_TIME_LEFT_MS,
  TRC20_TRANSFER_SELECTOR,
  USDT_MAINNET_CONTRACT,
  verifySignedTransaction,
  type ContractDetails,
  type TxKind,
  type TxRejection,
  type TxVerification,
  type VerifiedTransaction,
  type VerifyOptions,
} from "./transaction.js";
export { recoverSigner, type Recovery } from "./signature.js";
export { describeTxRefusal, type MalformedProblem, type MismatchProblem, type SignatureProblem, type TxRefusal } from "./refusal.js";
export { estimateEnergy, estimateResource, RESOURCE_ESTIMATES, type ProvisionedResource } from "./estimate-energy.js";
