/** How the main checkout's edits to a task file are told, by the run that takes them and by `ralph status` before it. */

export interface StoryEdits {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
}

/** `added US-006; changed US-002`, ids as the task file has them. */
export function describeMainEdits(edits: StoryEdits): string {
  const parts = [
    edits.added.length > 0 ? `added ${edits.added.join(', ')}` : '',
    edits.changed.length > 0 ? `changed ${edits.changed.join(', ')}` : '',
    edits.removed.length > 0 ? `removed ${edits.removed.join(', ')}` : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : 'no story changed';
}

/** `ralph status`'s line over a listing that already shows the edits the next run takes. */
export function mainEditsLine(edits: StoryEdits, mainFile: string): string {
  return `  edited in the main checkout (${mainFile}): ${describeMainEdits(edits)}; shown as the next run reads them, which takes them into its copy`;
}
