// The CLI's name for holdStartupMemory (startup-memory.ts), which now also holds the optimizing
// compiler and collects the start-up garbage; src/cli/actions/gateway.ts can import
// holdStartupMemory directly and this file go.
export { holdStartupMemory as holdYoungGeneration } from "./startup-memory.js";
