/**
 * Older Chief folders, prd.md with Chief's prd.json of statuses beside it,
 * as found in the wild (test/fixtures/peers/wild/, repository, path and
 * commit in its README). Chief migrates the prd.json's statuses into the
 * prd.md when it starts (internal/prd/migrate.go); ralph reads each folder
 * as Chief reads it after that migration (`chiefMigrate` then
 * `chiefReadMd`, restated in test/support/peer-readers.ts), says so, and
 * leaves both files as they are.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chiefHoldsId, chiefMigrate, chiefReadMd } from '../../test/support/peer-readers.js';
import { statusOf, wild, wildText } from '../../test/support/wild-fixtures.js';
import { openTaskSource, readPrd } from './load-task-source.js';

/** Every wild folder holding both a prd.md and a prd.json. */
function chiefFolders(): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(wild(rel), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const sub = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (existsSync(wild(`${sub}/prd.md`)) && existsSync(wild(`${sub}/prd.json`))) found.push(sub);
      walk(sub);
    }
  };
  walk('');
  return found.sort();
}

const FOLDERS = chiefFolders();
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The folder copied to `.chief/prds/main/` of a fresh project; returns that folder. */
function copyOf(folder: string): string {
  const root = mkdtempSync(join(tmpdir(), 'ralph-chief-'));
  made.push(root);
  const dir = join(root, '.chief', 'prds', 'main');
  cpSync(wild(folder), dir, { recursive: true });
  return dir;
}

describe('older Chief folders, read as Chief reads them after its migration', () => {
  it('there are at least 16 of them', () => {
    expect(FOLDERS.length).toBeGreaterThanOrEqual(16);
  });

  for (const folder of FOLDERS) {
    it(folder, async () => {
      const md = wildText(`${folder}/prd.md`);
      const chief = chiefReadMd(chiefMigrate(md, wildText(`${folder}/prd.json`)));
      const result = await readPrd(wild(`${folder}/prd.md`));
      if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3), null, 2));
      const held = result.prd.stories.filter((s) => chiefHoldsId(s.id));
      expect(held.map((s) => [s.id, s.status])).toEqual(chief.stories.map((s) => [s.id, statusOf(s)]));
      expect(result.warnings[0]?.file).toBe(wild(`${folder}/prd.json`));
      expect(result.warnings[0]?.message).toMatch(
        /^prd\.json beside prd\.md is an older Chief's status file/,
      );
      // Reading changes nothing: neither file is rewritten nor renamed.
      expect(readFileSync(wild(`${folder}/prd.md`), 'utf8')).toBe(md);
    });
  }

  it('all together: as many stories done as Chief shows, where the prd.md alone shows far fewer', async () => {
    let ralphDone = 0;
    let chiefDone = 0;
    let mdAloneDone = 0;
    for (const folder of FOLDERS) {
      const md = wildText(`${folder}/prd.md`);
      const result = await readPrd(wild(`${folder}/prd.md`));
      ralphDone += result.ok ? result.prd.stories.filter((s) => s.status === 'done').length : 0;
      chiefDone += chiefReadMd(chiefMigrate(md, wildText(`${folder}/prd.json`))).stories.filter(
        (s) => s.passes,
      ).length;
      mdAloneDone += chiefReadMd(md).stories.filter((s) => s.passes).length;
    }
    expect(ralphDone).toBe(chiefDone);
    expect(chiefDone).toBeGreaterThan(mdAloneDone + 100);
  });
});

describe('a prd.json beside a prd.md outside .chief/prds/', () => {
  it("is the user's own (a converted copy, say): the prd.md is read alone, without a warning", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ralph-chief-'));
    made.push(root);
    cpSync(wild('datashaman/kiln-action/.chief/prds/main'), root, { recursive: true });
    const result = await readPrd(join(root, 'prd.md'));
    const mdAlone = chiefReadMd(readFileSync(join(root, 'prd.md'), 'utf8'));
    expect(result.ok && result.prd.stories.map((s) => s.status)).toEqual(mdAlone.stories.map(statusOf));
    expect(result.ok && result.warnings).toEqual([]);
  });
});

describe('writing a status into an older Chief folder', () => {
  const folder = 'datashaman/kiln-action/.chief/prds/main';

  it('writes the migrated statuses and the new one into prd.md, and leaves prd.json as it is', async () => {
    const dir = copyOf(folder);
    const json = readFileSync(join(dir, 'prd.json'), 'utf8');
    const before = await readPrd(join(dir, 'prd.md'));
    if (!before.ok) throw new Error('unreadable');
    const open = before.prd.stories.find((s) => s.status !== 'done');
    if (!open) throw new Error('no open story');
    await openTaskSource(join(dir, 'prd.md')).setStatus(open.id, 'done');
    const after = await readPrd(join(dir, 'prd.md'));
    if (!after.ok) throw new Error('unreadable after');
    expect(after.prd.stories.filter((s) => s.status === 'done').length).toBe(
      before.prd.stories.filter((s) => s.status === 'done').length + 1,
    );
    expect(readFileSync(join(dir, 'prd.json'), 'utf8')).toBe(json);
    // The prd.md alone now says what Chief's migration would have made it say.
    rmSync(join(dir, 'prd.json'));
    const alone = await readPrd(join(dir, 'prd.md'));
    expect(alone.ok && alone.prd.stories.map((s) => s.status)).toEqual(
      after.prd.stories.map((s) => s.status),
    );
  });

  it('a story the stale prd.json calls in progress stays done once ralph has written done', async () => {
    const dir = copyOf(folder);
    const raw = JSON.parse(readFileSync(join(dir, 'prd.json'), 'utf8'));
    const story = raw.userStories.find((s: { passes: boolean }) => !s.passes);
    story.inProgress = true;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'prd.json'), JSON.stringify(raw, null, 2));
    const read = async () => {
      const r = await readPrd(join(dir, 'prd.md'));
      return r.ok ? r.prd.stories.find((s) => s.id === story.id)?.status : undefined;
    };
    expect(await read()).toBe('in-progress');
    await openTaskSource(join(dir, 'prd.md')).setStatus(story.id, 'done');
    expect(await read()).toBe('done');
  });

  it("a prd.json Go cannot decode: the prd.md's statuses alone, as Chief's failed migration leaves them, and a warning", async () => {
    const dir = copyOf(folder);
    const raw = JSON.parse(readFileSync(join(dir, 'prd.json'), 'utf8'));
    raw.userStories[0].priority = 'high';
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'prd.json'), JSON.stringify(raw));
    const result = await readPrd(join(dir, 'prd.md'));
    const mdAlone = chiefReadMd(readFileSync(join(dir, 'prd.md'), 'utf8'));
    expect(result.ok && result.prd.stories.filter((s) => s.status === 'done').length).toBe(
      mdAlone.stories.filter((s) => s.passes).length,
    );
    expect(result.ok && result.warnings[0]?.message).toMatch(
      /userStories\[0\]\.priority is not a number: Chief's migration fails on it too/,
    );
    expect(dirname(result.ok ? (result.warnings[0]?.file ?? '') : '')).toBe(dir);
  });
});
