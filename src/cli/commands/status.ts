import { join, relative } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatUsd } from '../../core/money.js';
import { selectNextStory } from '../../core/select.js';
import type { Story } from '../../core/types.js';
import { type RunState, readRunState } from '../../state/run-state.js';
import { statusMark } from '../format.js';
import { openTaskContext } from '../task-context.js';

export async function statusCommand(target: string | undefined, opts: { json?: boolean }): Promise<number> {
  const ctx = await openTaskContext(target);
  const run = await readRunState(join(ctx.target.runDir, 'state.json'));
  const parked = new Set(Object.entries(run?.stories ?? {}).flatMap(([id, s]) => (s.parked ? [id] : [])));
  const selection = selectNextStory(ctx.prd.stories, { parked });
  const next = selection.kind === 'story' ? selection.story : null;
  const done = ctx.prd.stories.filter((s) => s.status === 'done').length;

  if (opts.json) {
    console.log(
      JSON.stringify(
        {
          name: ctx.target.name,
          format: ctx.prd.format,
          path: ctx.livePath,
          project: ctx.prd.project,
          done,
          total: ctx.prd.stories.length,
          stories: ctx.prd.stories.map((s) => storyJson(s, run, parked)),
          next: next ? { id: next.id, title: next.title } : null,
          run: run ? runJson(run) : null,
        },
        null,
        2,
      ),
    );
    return ExitCode.Success;
  }

  const shown = relative(process.cwd(), ctx.livePath) || ctx.livePath;
  console.log(`${ctx.target.name}: ${ctx.prd.project} (${shown})`);
  for (const s of ctx.prd.stories) {
    const mark = statusMark(s.status, parked.has(s.id));
    const attempts = run?.stories[s.id]?.attempts;
    const extra = attempts ? `  (${attempts} attempt${attempts === 1 ? '' : 's'})` : '';
    console.log(`  ${mark} ${s.id}  ${s.title}${extra}`);
  }
  console.log(`${done}/${ctx.prd.stories.length} done · next: ${next ? `${next.id} ${next.title}` : 'none'}`);
  if (run) {
    const t = run.totals;
    console.log(
      `run: ${t.iterations} iteration${t.iterations === 1 ? '' : 's'}, ${formatUsd(t.costUsd)}, ${t.inputTokens + t.outputTokens} tokens${run.stop ? `, stopped: ${run.stop.reason}` : ''}`,
    );
  }
  return ExitCode.Success;
}

function storyJson(s: Story, run: RunState | null, parked: ReadonlySet<string>) {
  const record = run?.stories[s.id];
  return {
    id: s.id,
    title: s.title,
    status: s.status,
    passes: s.status === 'done',
    parked: parked.has(s.id),
    priority: s.priority,
    dependsOn: s.dependsOn,
    attempts: record?.attempts ?? 0,
    costUsd: record?.costUsd ?? 0,
  };
}

function runJson(run: RunState) {
  return { iteration: run.iteration, current: run.current, totals: run.totals, stop: run.stop ?? null };
}
