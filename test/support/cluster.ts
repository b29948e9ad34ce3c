import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../libs/platform/src/database/embedded-postgres';
import { ApiClient, OPERATOR_KEY, type ApiTarget } from './api';
import { callerFor } from './app';
import { CARD_FORM, csrfOf, submitForm } from './hosted-form';
import { buildOnce, startProcess, waitForHealth, type ServiceProcess } from './process';
import { checkedFetch } from './checked-fetch';

/** One vault key for every process: what one process seals, the others open (and their CSRF tokens agree). */
export const CLUSTER_VAULT_KEY = 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=';
/** Where the processes say they are (a proxy would stand there): hosted-page links and problem types. */
export const CLUSTER_PUBLIC_BASE_URL = 'http://payments.test';
export const CLUSTER_RETRY_SCHEDULE = '0,1,2';

/** One service process of a {@link Cluster}, as `npm start` runs it. */
export class Member {
  proc!: ServiceProcess;
  readonly base: string;

  constructor(
    readonly index: number,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  /** An API client of this process with `key` (the operator's by default). */
  client(key: string | null = OPERATOR_KEY): ApiClient<ApiTarget> {
    return new ApiClient({ url: this.base, call: callerFor(this.base) }, key);
  }

  /** `url` (e.g. a hosted-page link under the public base URL) as served by this process. */
  here(url: string): string {
    const parsed = new URL(url);
    return `${this.base}${parsed.pathname}${parsed.search}`;
  }

  get alive(): boolean {
    return this.proc.child.exitCode === null && this.proc.child.signalCode === null;
  }

  async start(): Promise<void> {
    this.proc = startProcess(this.env);
    await waitForHealth(this.base, this.proc, 120_000);
  }

  /** `kill -9`: no shutdown of any kind. */
  async kill(): Promise<void> {
    this.proc.child.kill('SIGKILL');
    await this.proc.exited;
  }

  /** Graceful stop; resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (!this.alive) return this.proc.child.exitCode;
    this.proc.child.kill('SIGTERM');
    return this.proc.exited;
  }
}

/**
 * Several service processes on one PostgreSQL (`DATABASE_URL`), each on its own port, sharing
 * what a deployment of several processes shares: the operator key, the vault key and the public
 * base URL (docs/operations.md, "Several processes").
 */
export class Cluster {
  private constructor(
    readonly members: Member[],
    private readonly dataRoot: string,
  ) {}

  static async start(size: number, databaseUrl: string, env: Record<string, string> = {}): Promise<Cluster> {
    buildOnce();
    const dataRoot = mkdtempSync(path.join(tmpdir(), 'payments-cluster-'));
    const members: Member[] = [];
    for (let index = 0; index < size; index++) {
      const port = await freePort();
      members.push(
        new Member(index, port, {
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          DATA_DIR: path.join(dataRoot, `process-${index}`),
          PLATFORM_OPERATOR_KEY: OPERATOR_KEY,
          VAULT_KEY: CLUSTER_VAULT_KEY,
          PUBLIC_BASE_URL: CLUSTER_PUBLIC_BASE_URL,
          WEBHOOK_RETRY_SCHEDULE: CLUSTER_RETRY_SCHEDULE,
          WEBHOOK_TIMEOUT_MS: '2000',
          LOG_LEVEL: 'warn',
          ...env,
        }),
      );
    }
    const cluster = new Cluster(members, dataRoot);
    try {
      // One after another: on a busy 2-core machine a dozen connections opening at once per process
      // can take longer than the pools wait for them. (Replicas starting together is covered by
      // the migrations' advisory locks: data-source.ts, migrate-with-lock.ts.)
      for (const member of members) await member.start();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** The member for request number `n`: round robin, as a load balancer would. */
  at(n: number): Member {
    return this.members[n % this.members.length];
  }

  /** Stops every process still running (SIGTERM) and says how each ended. */
  async stop(): Promise<(number | null)[]> {
    const codes = await Promise.all(this.members.map((member) => (member.proc ? member.stop() : null)));
    rmSync(this.dataRoot, { recursive: true, force: true });
    return codes;
  }

  /** Everything the processes logged (for a failing test's message). */
  output(): string {
    return this.members.map((m) => `--- process ${m.index}\n${m.proc?.output() ?? ''}`).join('\n');
  }
}

/** A partner made through the operator API of a cluster, one step per process. */
export interface ClusterPartner {
  id: string;
  key: string;
  /** The partner's client of one process. */
  on(member: Member): ApiClient<ApiTarget>;
}

/** A partner and its key, at `tier` (ENTERPRISE: the load is not what its rate limit measures). */
export async function clusterPartner(cluster: Cluster, tier = 'ENTERPRISE'): Promise<ClusterPartner> {
  const created = await cluster.at(0).client().post('/platform/partners', {
    name: 'Cluster Software',
    contact_email: 'dev@cluster.test',
    contact_name: 'Ada Lovelace',
  });
  if (created.status !== 201) throw new Error(`partner: ${created.status} ${created.text}`);
  const issued = await cluster.at(1).client().post(`/platform/partners/${created.body.id}/api-keys`, {});
  if (issued.status !== 201) throw new Error(`key: ${issued.status} ${issued.text}`);
  const configured = await cluster
    .at(2)
    .client()
    .patch(`/platform/partners/${created.body.id}/config`, { rate_limit_tier: tier });
  if (configured.status !== 200) throw new Error(`tier: ${configured.status} ${configured.text}`);
  const key = issued.body.api_key as string;
  return { id: created.body.id as string, key, on: (member) => member.client(key) };
}

/**
 * A hosted page created on one process, shown by a second and paid on a third, as a payer's
 * browser does it: the form's CSRF token, signed by one process, is checked by another.
 */
export async function completeHostedPage(
  creator: ApiClient<ApiTarget>,
  shower: Member,
  poster: Member,
  body: Record<string, unknown>,
): Promise<{ sessionId: string; status: number }> {
  const session = await creator.post('/hpp/sessions', { amount: '20.00', currency: 'USD', ...body });
  if (session.status !== 201) throw new Error(`session: ${session.status} ${session.text}`);
  const page = await checkedFetch(shower.here(session.body.hpp_url));
  if (page.status !== 200) throw new Error(`page: ${page.status}`);
  const posted = await submitForm(poster.here(session.body.hpp_url), {
    csrf_token: csrfOf(await page.text()),
    ...CARD_FORM,
  });
  return { sessionId: session.body.id as string, status: posted.status };
}

/** A card saved by a paid hosted page that crossed the processes: its vault token, and the page. */
export async function savedCard(
  cluster: Cluster,
  partner: ClusterPartner,
  merchantId: string,
): Promise<{ vaultToken: string; sessionId: string }> {
  const page = await completeHostedPage(partner.on(cluster.at(0)), cluster.at(1), cluster.at(2), {
    merchant_id: merchantId,
    save_payment_method: true,
    credential_usages: ['ONE_TIME_FUTURE'],
  });
  if (page.status !== 303) throw new Error(`the saving page answered ${page.status}`);
  const session = await partner.on(cluster.at(0)).get(`/hpp/sessions/${page.sessionId}`);
  if (session.body.state !== 'COMPLETED') throw new Error(`the saving page is ${session.body.state}`);
  return { vaultToken: session.body.vault_token as string, sessionId: page.sessionId };
}

/** Runs `work` over `items`, `width` at a time; the results in the items' order. */
export async function inParallel<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}
