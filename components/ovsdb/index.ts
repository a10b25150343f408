// The OVSDB layer's public surface.
export * from "./client";
export * from "./encoding";
export * from "./errors";
export * from "./operations";
export { checkTransactResults } from "./results";
