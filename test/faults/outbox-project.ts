/**
 * The outbox campaign's project: three issues on a scripted GitHub, run with
 * the real Claude Code against the scripted model, its webhooks posted to a
 * local receiver that drops a delivery it has seen. GH-1 and GH-3 pass (on
 * any attempt), GH-2 fails its only attempt and is parked.
 */
import { type GithubServer, startGithubServer } from '../support/github-server.js';
import { createLoopProject, type LoopProject } from '../support/loop-project.js';
import { fail, implement } from '../support/story-script.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

export const TOKEN = 'ghp_outbox_campaign';
export const RUN_DIR = '.ralph/runs/github-ralph';
export const BRANCH = 'ralph/github-ralph';
export const PASSING = [1, 3] as const;
export const PARKED = 2;

export interface OutboxProject {
  project: LoopProject;
  github: GithubServer;
  webhooks: WebhookReceiver;
  /** Each delivery a receiver that drops duplicates kept, and how many it dropped. */
  kept(): { deliveries: Record<string, unknown>[]; duplicates: number; withoutId: number };
  args: string[];
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function createOutboxProject(parallel: boolean): Promise<OutboxProject> {
  const github = await startGithubServer({
    owner: 'acme',
    repo: 'app',
    token: TOKEN,
    issues: [
      { number: 1, title: 'Add greeting', body: '- [ ] greet.txt says hello', labels: ['ralph'] },
      { number: 2, title: 'Add farewell', body: '- [ ] bye.txt says bye', labels: ['ralph'] },
      { number: 3, title: 'Add shout', body: '- [ ] shout.txt says HEY', labels: ['ralph'] },
    ],
  });
  const webhooks = await startWebhookReceiver();
  const again = <T>(turns: T): T[] => [turns, turns, turns, turns, turns, turns];
  const project = await createLoopProject(
    {
      '.ralph/config.yaml': [
        'limits:',
        '  maxRetries: 1',
        'checks:',
        '  - sleep 0.2',
        'notify:',
        '  webhooks:',
        `    - ${webhooks.url}/hook`,
        '',
      ].join('\n'),
    },
    {
      'GH-1': again(implement('GH-1', 'Add greeting', 'greet.txt', 'hello\n')),
      'GH-2': again(fail('GH-2', 'the farewell cannot be written')),
      'GH-3': again(implement('GH-3', 'Add shout', 'shout.txt', 'HEY\n')),
    },
  );
  return {
    project,
    github,
    webhooks,
    kept: () => {
      const seen = new Set<string>();
      const deliveries: Record<string, unknown>[] = [];
      let duplicates = 0;
      let withoutId = 0;
      for (const hook of webhooks.received) {
        const id = hook.body.delivery;
        if (typeof id !== 'string') {
          withoutId++;
          continue;
        }
        if (seen.has(id)) {
          duplicates++;
          continue;
        }
        seen.add(id);
        deliveries.push(hook.body);
      }
      return { deliveries, duplicates, withoutId };
    },
    args: [
      '--source',
      'github',
      '--repo',
      'acme/app',
      '--headless',
      ...(parallel ? ['--parallel', '2'] : []),
    ],
    env: { GITHUB_API_URL: github.url, GH_TOKEN: TOKEN },
    close: async () => {
      await project.cleanup();
      await github.close();
      await webhooks.close();
    },
  };
}
