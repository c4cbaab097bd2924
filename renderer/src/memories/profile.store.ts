/**
 * The profile ("About you"): the page itself, kept live by profile.updated (the background model's rewrites, the
 * user's edit from another window or the CLI), and the refresh the user asked for, followed until its job ends: the
 * job may end without a new profile (nothing to write yet), so the queue says when it is over, not only the event.
 * A failed attempt that will be retried sends no event (job.failed is for the last one): the job's row says it.
 */
import { create } from 'zustand';
import type { Profile, ProfileFit } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';

/** How many waiting jobs are read to see whether the asked-for refresh is still among them. */
const PENDING_LOOKUP_LIMIT = 500;

export interface ProfileJobFailure {
  code: string;
  /** No attempt is left: nothing more happens until the user asks again. */
  final: boolean;
}

interface ProfileState {
  client: Client | null;
  profile: Profile | null;
  /** How much of the profile a prompt holds (profile.get), read again after every change of the profile. */
  fits: ProfileFit | null;
  loaded: boolean;
  /** The refresh the user asked for, until its job ends. */
  pendingJobId: number | null;
  /** The last profile job's failure, until the next refresh or a rewrite. */
  failure: ProfileJobFailure | null;
  init(client: Client): void;
  load(): Promise<void>;
  save(content: string): Promise<Result<Profile | null>>;
  /** shorten: a rewrite asked to fit what a prompt holds. */
  refresh(shorten?: boolean): Promise<Result<{ jobId: number }>>;
}

const notReady: Result<never> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } };

export const useProfileStore = create<ProfileState>((set, get) => {
  let request = 0;

  /** The asked-for job is not running here: is it still waiting (or running in another process), after a failure? */
  async function checkPending(): Promise<void> {
    const { client, pendingJobId } = get();
    if (!client || pendingJobId === null) return;
    const result = await client.call('queue.list', { status: ['queued', 'running'], limit: PENDING_LOOKUP_LIMIT });
    if (!result.ok || get().pendingJobId !== pendingJobId) return;
    const job = result.value.jobs.find((j) => j.id === pendingJobId);
    if (!job) set({ pendingJobId: null });
    else if (job.status === 'queued' && job.lastErrorCode !== null) set({ failure: { code: job.lastErrorCode, final: false } });
  }

  return {
    client: null,
    profile: null,
    fits: null,
    loaded: false,
    pendingJobId: null,
    failure: null,

    init(client) {
      set({ client });
      client.on('profile.updated', ({ profile }) => {
        request++; // an answer to an earlier profile.get is older than this
        const rewritten = profile !== null && profile.refreshedAt !== (get().profile?.refreshedAt ?? null);
        set({ profile, loaded: true, ...(rewritten ? { failure: null } : {}) });
        void get().load(); // how much of it fits
      });
      // The last attempt of any profile job (the queue's end of the asked-for one is seen by checkPending).
      client.on('job.failed', ({ kind, code, final }) => {
        if (kind === 'profile') set({ failure: { code, final } });
      });
      client.on('queue.changed', (queue) => {
        const pending = get().pendingJobId;
        if (pending !== null && queue.running?.id !== pending) void checkPending();
      });
      void get().load();
    },

    async load() {
      const client = get().client;
      if (!client) return;
      const mine = ++request;
      const result = await client.call('profile.get', {});
      if (mine !== request) return;
      if (result.ok) set({ profile: result.value, fits: result.value?.fits ?? null, loaded: true });
      void checkPending();
    },

    async save(content) {
      const client = get().client;
      if (!client) return notReady;
      const result = await client.call('profile.update', { content });
      if (result.ok) {
        request++;
        set({ profile: result.value, loaded: true });
        void get().load(); // how much of it fits
      }
      return result;
    },

    async refresh(shorten) {
      const client = get().client;
      if (!client) return notReady;
      set({ failure: null });
      const result = await client.call('profile.refresh', shorten ? { shorten: true } : {});
      if (result.ok) {
        set({ pendingJobId: result.value.jobId });
        void checkPending();
      }
      return result;
    },
  };
});
