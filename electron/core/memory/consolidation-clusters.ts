/**
 * Which related memories maintenance hands to the background model to summarise into one (consolidation).
 *
 * The rule, greedy and star-shaped: memories are taken as seeds one at a time; a seed's cluster is the seed and its
 * nearest neighbours (by vector) of the same category whose cosine similarity to the seed is at least
 * CLUSTER_SIMILARITY, closest first, none already in another cluster, at most MAX_CLUSTER_SIZE in all. A cluster
 * needs MIN_CLUSTER_SIZE members (three: two are a pair, which the near-duplicate merge handles when they say the
 * same thing). Clusters are therefore disjoint, each around one subject (every member is close to its seed), and
 * bounded in size, so one summary stays within a small model's reach.
 *
 * CLUSTER_SIMILARITY (0.75) sits below the near-duplicate threshold (default 0.9, merged earlier in the same run):
 * with the embedding models Mnemo uses (nomic-embed-text, bge-m3), two statements about the same habit or project
 * score about 0.75 to 0.9, unrelated ones of the same category below 0.6. A memory without a vector of the current
 * model is never a seed nor a neighbour: it is skipped until the re-embed job gives it one.
 *
 * A cluster holding a pinned memory or one that is the user's (memory-cap.ts says which) is marked `review`: its
 * summary goes to the review inbox as a proposal, never applied without the user.
 */

/** Least similarity of a neighbour to its seed. */
export const CLUSTER_SIMILARITY = 0.75;
export const MIN_CLUSTER_SIZE = 3;
export const MAX_CLUSTER_SIZE = 8;

export interface ClusterMember {
  id: number;
  category: string;
  pinned: boolean;
  /** The user's (written, edited, approved, imported...): see memory-cap.ts. */
  usersOwn: boolean;
}

export interface Cluster {
  /** The seed first, then its neighbours, closest first. */
  ids: number[];
  /** Holds a pinned memory or one of the user's: its summary waits for review. */
  review: boolean;
}

export interface Clusterer {
  /**
   * The cluster around `seed`, given its nearest neighbours (any order, any category, the seed itself possibly among
   * them); null when the seed is taken already or too few neighbours are left. Members are taken for later seeds.
   */
  around(seed: ClusterMember, neighbours: ReadonlyArray<{ member: ClusterMember; similarity: number }>): Cluster | null;
  /** Clusters found so far. */
  readonly found: number;
}

/** `taken`: memories already in a cluster elsewhere (a queued job, a proposal in review), never clustered again. */
export function createClusterer(taken: Iterable<number> = []): Clusterer {
  const used = new Set(taken);
  let found = 0;
  return {
    around(seed, neighbours) {
      if (used.has(seed.id)) return null;
      const members = [seed];
      const seen = new Set([seed.id]);
      const closest = [...neighbours].sort((a, b) => b.similarity - a.similarity || a.member.id - b.member.id);
      for (const { member, similarity } of closest) {
        if (members.length === MAX_CLUSTER_SIZE) break;
        if (similarity < CLUSTER_SIMILARITY || member.category !== seed.category || used.has(member.id) || seen.has(member.id)) continue;
        seen.add(member.id);
        members.push(member);
      }
      if (members.length < MIN_CLUSTER_SIZE) return null;
      for (const m of members) used.add(m.id);
      found++;
      return { ids: members.map((m) => m.id), review: members.some((m) => m.pinned || m.usersOwn) };
    },
    get found() {
      return found;
    },
  };
}
