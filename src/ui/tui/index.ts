export type { TuiController } from './controller.js';
export { createController } from './controller.js';
export { type ExitSummaryEntry, exitSummary } from './exit-summary.js';
export { type RunTuiOptions, runTui, type TuiExit } from './run-tui.js';
export * from './session.js';
