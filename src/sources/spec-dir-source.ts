import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { StoryStatus } from '../core/types.js';
import { parseSpecDir, type QueueText, type SpecFileText } from './parse-spec-dir.js';
import { fsIssue, readText, readTextIfExists, writeTextAtomic } from './read-text.js';
import { invalidTaskFile, UnknownStoryError } from './source-errors.js';
import { classifySpecPath } from './spec-path.js';
import type { ReadResult, TaskSource } from './task-source.js';
import { withGraphIssues } from './with-graph-issues.js';
import { withSpecStatus } from './write-spec-file.js';

/** The markdown files of a spec directory that matter: its root and its `epic-N/` folders. */
async function readSpecFiles(
  dir: string,
): Promise<{ ok: true; files: SpecFileText[] } | { ok: false; result: ReadResult }> {
  const relPaths: string[] = [];
  try {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isFile()) relPaths.push(entry.name);
      if (entry.isDirectory() && /^epic-\d+$/.test(entry.name)) {
        const inner = await readdir(join(dir, entry.name), { withFileTypes: true });
        for (const file of inner) if (file.isFile()) relPaths.push(`${entry.name}/${file.name}`);
      }
    }
  } catch (error) {
    return { ok: false, result: { ok: false, issues: [fsIssue(dir, error)] } };
  }

  const files: SpecFileText[] = [];
  const wanted = relPaths.filter((rel) => classifySpecPath(rel).kind !== 'ignore').sort();
  for (const relPath of wanted) {
    const read = await readText(join(dir, relPath));
    if (!read.ok) return { ok: false, result: { ok: false, issues: [read.issue] } };
    files.push({ relPath, text: read.text });
  }
  return { ok: true, files };
}

/** The project a spec directory belongs to is named after the folder holding `specs/`. */
const projectName = (dir: string): string => basename(dirname(resolve(dir))) || basename(resolve(dir));

/** The story queue of the project the spec format comes from: `.ralph/stories.txt` beside `specs/`. */
async function readQueue(
  dir: string,
): Promise<{ ok: true; queue?: QueueText } | { ok: false; result: ReadResult }> {
  const file = join(dirname(resolve(dir)), '.ralph', 'stories.txt');
  const read = await readTextIfExists(file);
  if (!read.ok) return { ok: false, result: { ok: false, issues: [read.issue] } };
  return { ok: true, ...(read.text !== undefined ? { queue: { file, text: read.text } } : {}) };
}

async function readSpecDir(dir: string): Promise<ReadResult> {
  const listed = await readSpecFiles(dir);
  if (!listed.ok) return listed.result;
  const queue = await readQueue(dir);
  if (!queue.ok) return queue.result;
  return withGraphIssues(parseSpecDir(dir, listed.files, projectName(dir), queue.queue));
}

/** A seed-003 spec directory (`specs/epic-N/story-N.M-slug.md`), and its `.ralph/stories.txt` queue when there is one. */
export function specDirTaskSource(dir: string): TaskSource {
  return {
    format: 'spec-dir',
    path: dir,
    read: () => readSpecDir(dir),
    async setStatus(storyId: string, status: StoryStatus): Promise<void> {
      const result = await readSpecDir(dir);
      if (!result.ok) throw invalidTaskFile(dir, result.issues);
      const story = result.prd.stories.find((s) => s.id === storyId);
      if (!story) throw new UnknownStoryError(storyId, dir);
      const file = story.location.file;
      const read = await readText(file);
      if (!read.ok) throw invalidTaskFile(file, [read.issue]);
      const next = withSpecStatus(read.text, file, status);
      if (next !== read.text) await writeTextAtomic(file, next);
    },
  };
}
