export type { TuiController } from './controller.js';
export { createController } from './controller.js';
export { type RunTuiOptions, runTui } from './run-tui.js';
export * from './session.js';
