/**
 * The task files found in the wild (test/fixtures/peers/wild/, repository,
 * path and commit in its README), grouped by the tool their authors wrote
 * them for, with how many stories each holds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Story } from '../../src/core/types.js';

const WILD = fileURLToPath(new URL('../fixtures/peers/wild/', import.meta.url));
export const wild = (rel: string): string => join(WILD, rel);
export const wildText = (rel: string): string => readFileSync(wild(rel), 'utf8');

/** Chief reads only checkbox lines, a wrapped line's first part, and every box of a sub-list. */
export const chiefBoxes = (story: Story): string[] =>
  story.acceptanceCriteria.flatMap((c) => {
    const [first = '', ...more] = c.split('\n');
    const nested = more.map((l) => /^-\s+\[[ xX]\]\s+(.+)$/.exec(l.trim())?.[1]?.trim());
    return [first, ...nested.filter((n): n is string => n !== undefined)];
  });

export const statusOf = (s: { passes: boolean; inProgress?: boolean }) =>
  s.passes ? 'done' : s.inProgress ? 'in-progress' : 'todo';

/** Chief users' prd.md, with how many stories each holds. */
export const CHIEF_MD: Record<string, number> = {
  'MiniCodeMonkey/greetup/.chief/prds/main/prd.md': 119,
  'MiniCodeMonkey/chief/.chief/prds/website-docs/prd.md': 22,
  'dabernathy89/openapi-mocks/.chief/prds/refactor-playwright-example/prd.md': 6,
  'dabernathy89/openapi-mocks/.chief/prds/docs-playground/prd.md': 12,
  'datashaman/dispatch/.chief/prds/main/prd.md': 28,
  'vow-lang/vow/.chief/prds/main/prd.md': 13,
  'tectiv3/rreader/.chief/prds/main/prd.md': 17,
  'jzarzeckis/lean-scrum-poker/.chief/prds/main/prd.md': 11,
  'spatie/flare-cli/.chief/prds/main/prd.md': 9,
  'spatie/flare-cli/.chief/prds/bugfixes/prd.md': 6,
  'traubisoda/exercise-snack/.chief/prds/icon-fixes/prd.md': 1,
  'traubisoda/exercise-snack/.chief/prds/new-icon/prd.md': 4,
  'mage-os-lab/mage-os-installer/.chief/prds/main/prd.md': 14,
  'jathayde/ceres/.chief/prds/main/prd.md': 30,
  'WayLit/git-cl-vscode/.chief/prds/main/prd.md': 22,
  'jstoone/zetland-linjer/.chief/prds/main/prd.md': 12,
  'Avacaato/MAT/tasks/prd.md': 21,
  'BenjaminLesne/chore-champ/tasks/prd-member-stats.md': 4,
  // Older Chief folders, prd.md and prd.json from the same commit.
  'datashaman/developer-soundtrack/.chief/prds/main/prd.md': 50,
  'datashaman/kiln-action/.chief/prds/main/prd.md': 18,
  'bogdantarasenko/better-auth-admin/.chief/prds/main/prd.md': 10,
  'sasha-computer/domain-search/.chief/prds/generalize/prd.md': 4,
  'sasha-computer/domain-search/.chief/prds/main/prd.md': 8,
};

/** prd.md written for ralph-tui (its own task files), read as ralph-tui's parser reads them. */
export const TUI_MD: Record<string, number> = {
  'subsy/ralph-tui/tasks/prd-rate-limit-fallback.md': 8,
  'subsy/ralph-tui/tasks/prd-subagent-tracing.md': 10,
  'CKristensen/groundskeeper-willie/tasks/prd-groundskeeper-willie-v01.md': 8,
};

/** prd.json as snarktank, Chief and ralph-tui users wrote them. */
export const JSON_FILES: Record<string, number> = {
  'MiniCodeMonkey/chief/.chief/prds/website-docs/prd.json': 22,
  'dabernathy89/openapi-mocks/.chief/prds/refactor-playwright-example/prd.json': 6,
  'dabernathy89/openapi-mocks/.chief/prds/docs-playground/prd.json': 12,
  'datashaman/dispatch/.chief/prds/main/prd.json': 28,
  'vow-lang/vow/.chief/prds/main/prd.json': 13,
  'tectiv3/rreader/.chief/prds/main/prd.json': 17,
  'jzarzeckis/lean-scrum-poker/.chief/prds/main/prd.json': 11,
  'spatie/flare-cli/.chief/prds/main/prd.json': 9,
  'spatie/flare-cli/.chief/prds/bugfixes/prd.json': 6,
  'traubisoda/exercise-snack/.chief/prds/icon-fixes/prd.json': 1,
  'traubisoda/exercise-snack/.chief/prds/new-icon/prd.json': 4,
  'subsy/ralph-tui/tasks/prd.json': 16,
  'subsy/ralph-tui/scripts/ralph/prd.json': 8,
  'subsy/ralph-tui/testing/test-conflict-prd.json': 4,
  'Bushels/WellFi/prd.json': 19,
  '37chengshan/codex-claude-ralph/prd.json': 3,
  'AminElhag/Liyaqa/platform-dashboard/prd.json': 109,
  'BumpyClock/homie/prd.json': 5,
  'AndrewMarasigan31/ka-beat-planner/prd.json': 7,
  'Avacaato/MAT/prd.json': 21,
  'Bellarose143/Progression/prd.json': 3,
  'BenjaminLesne/chore-champ/prd.json': 4,
  'datashaman/developer-soundtrack/.chief/prds/main/prd.json': 50,
  'datashaman/kiln-action/.chief/prds/main/prd.json': 18,
  'bogdantarasenko/better-auth-admin/.chief/prds/main/prd.json': 10,
  'sasha-computer/domain-search/.chief/prds/generalize/prd.json': 4,
  'sasha-computer/domain-search/.chief/prds/main/prd.json': 8,
};

/** Files ralph cannot read, each refused at the line that says why. */
export const REFUSED: Record<string, { line: number; message: RegExp }> = {
  'subsy/ralph-tui/tests/fixtures/sample-prd.json': {
    line: 11,
    message: /passes: required boolean is missing/,
  },
  'CKristensen/groundskeeper-willie/prd.json': { line: 268, message: /invalid JSON: ',' expected/ },
  'Bellarose143/Progression/tasks/prd-world-scale-phase-a.md': {
    line: 22,
    message: /story heading without an id: expected "### US-001: Title", found "### Story 1: SimConfig/,
  },
  '48Nauts-Operator/ralph-ultra/.archive/2026-01-24_v2.4-completed_prd.json': {
    line: 11,
    message: /acceptanceCriteria\[0\]: expected string, received object/,
  },
  'AustinHardcastleDev/se-prototype-schedule/prd.json': {
    line: 1,
    message: /project: required string is missing/,
  },
};
