export * from "./types.js";
export * from "./money.js";
