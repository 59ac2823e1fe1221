import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { StoryStatus } from '../core/types.js';
import { findStoryNode, parseJsonTree } from './json-tree.js';
import { parsePrdJson } from './parse-prd-json.js';
import { invalidTaskFile, UnknownStoryError } from './source-errors.js';
import { dominantEol } from './text-position.js';

interface Edit {
  offset: number;
  length: number;
  content: string;
}

/**
 * Sets `passes` / `inProgress` of one story (and, on done, its
 * `acceptanceCriteriaChecked` ticks) by splicing only those values,
 * so every other byte of the file (other stories, unknown fields, the
 * trailing newline) stays as it was.
 */
export function withPrdJsonStatus(text: string, file: string, storyId: string, status: StoryStatus): string {
  const parsed = parsePrdJson(text, file);
  if (!parsed.ok) throw invalidTaskFile(file, parsed.issues);
  const { root } = parseJsonTree(text);
  const story = findStoryNode(root, storyId);
  if (!story) throw new UnknownStoryError(storyId, file);

  const edits: Edit[] = [];
  const passes = findNodeAtLocation(story.node, ['passes']);
  if (passes) edits.push(replaceValue(passes, String(status === 'done')));

  const inProgress = findNodeAtLocation(story.node, ['inProgress']);
  if (inProgress) {
    edits.push(replaceValue(inProgress, String(status === 'in-progress')));
  } else if (status === 'in-progress' && passes?.parent) {
    edits.push(insertAfter(text, passes.parent, '"inProgress": true'));
  }

  // A done story has every criterion ticked, as Chief ticks a prd.md's boxes.
  const ticks = findNodeAtLocation(story.node, ['acceptanceCriteriaChecked']);
  if (status === 'done' && ticks?.type === 'array') {
    for (const tick of ticks.children ?? []) if (tick.value === false) edits.push(replaceValue(tick, 'true'));
  }

  return applyEdits(text, edits);
}

function replaceValue(node: Node, content: string): Edit {
  return { offset: node.offset, length: node.length, content };
}

/** Inserts a property after `property`, on its own line with the same indent when the object is multi-line. */
function insertAfter(text: string, property: Node, content: string): Edit {
  const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
  const indent = text.slice(lineStart, property.offset);
  const separator = /^[ \t]*$/.test(indent) ? `,${dominantEol(text)}${indent}` : ', ';
  return { offset: property.offset + property.length, length: 0, content: separator + content };
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, edit.offset) + edit.content + out.slice(edit.offset + edit.length);
  }
  return out;
}
