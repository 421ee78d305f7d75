// A deliberately naive model of the store for the property test: every revision keeps its whole state
// in memory, history is a plain list, gc follows the rules of docs/store.md literally.
import type { ApplyResponse, Change, DocumentInput, LogEntry } from '../../../src/shared/store-api.js';

/** An expected failure of the model, by the same kinds the engine uses. */
export class ModelError extends Error {
  constructor(readonly kind: 'not_found' | 'conflict') {
    super(kind);
  }
}

type State = ReadonlyMap<string, string>;

interface Revision {
  readonly id: number;
  readonly branch: string;
  readonly parent: number;
  readonly message: string;
  readonly state: State;
  readonly changes: Change[];
}

interface Branch {
  readonly base: number;
  head: number;
}

/** A rollback or restore of a branch to its own line: from `revision` on, the line continues at `target`. */
interface Restart {
  readonly revision: number;
  readonly target: number;
}

interface Namespace {
  counter: number;
  readonly branches: Map<string, Branch>;
  readonly revisions: Map<number, Revision>;
  readonly checkpoints: Map<string, number>;
  /** Per branch, oldest first: gc keeps their targets, which can become merge bases. */
  readonly restarts: Map<string, Restart[]>;
}

const bytewise = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const EMPTY: State = new Map();

/** The changes that turn `from` into `to`, sorted by key bytes. */
export function diffStates(from: State, to: State): Change[] {
  const changes: Change[] = [];
  for (const [key, after] of to) {
    const before = from.get(key);
    if (before === undefined) changes.push({ key, type: 'create', after });
    else if (before !== after) changes.push({ key, type: 'update', before, after });
  }
  for (const [key, before] of from) if (!to.has(key)) changes.push({ key, type: 'delete', before });
  return changes.sort((a, b) => bytewise(a.key, b.key));
}

/** The in-memory model. */
export class StoreModel {
  private readonly namespaces = new Map<string, Namespace>();

  private ns(name: string): Namespace {
    let ns = this.namespaces.get(name);
    if (!ns) {
      ns = { counter: 0, branches: new Map(), revisions: new Map(), checkpoints: new Map(), restarts: new Map() };
      this.namespaces.set(name, ns);
    }
    return ns;
  }

  /** Namespaces and branches the model knows. */
  scopes(): { namespace: string; branch: string }[] {
    return [...this.namespaces].flatMap(([namespace, ns]) =>
      [...ns.branches.keys()].map((branch) => ({ namespace, branch })),
    );
  }

  /** Retained revision ids of a branch, newest first. */
  revisionsOf(namespace: string, branch: string): number[] {
    const ns = this.ns(namespace);
    return [...ns.revisions.values()]
      .filter((r) => r.branch === branch)
      .map((r) => r.id)
      .sort((a, b) => b - a);
  }

  /** Every retained revision id of a namespace. */
  allRevisions(namespace: string): number[] {
    return [...this.ns(namespace).revisions.keys()];
  }

  checkpointNames(namespace: string): string[] {
    return [...this.ns(namespace).checkpoints.keys()];
  }

  head(namespace: string, branch: string): number {
    return this.ns(namespace).branches.get(branch)?.head ?? 0;
  }

  stateAt(namespace: string, revision: number): State {
    return revision === 0 ? EMPTY : this.ns(namespace).revisions.get(revision)!.state;
  }

  /** Head state as a plain object. */
  objects(namespace: string, branch: string, revision = this.head(namespace, branch)): Record<string, string> {
    return Object.fromEntries(this.stateAt(namespace, revision));
  }

  log(namespace: string, branch: string): Omit<LogEntry, 'created_at'>[] {
    const ns = this.ns(namespace);
    return this.revisionsOf(namespace, branch).map((id) => {
      const r = ns.revisions.get(id)!;
      return { id, parent_id: r.parent, branch: r.branch, message: r.message, changes: r.changes };
    });
  }

  applyDocuments(
    namespace: string,
    branch: string,
    documents: readonly DocumentInput[],
    mode: 'merge' | 'replace',
  ): ApplyResponse {
    const current = this.stateAt(namespace, this.head(namespace, branch));
    const next = new Map(mode === 'replace' ? [] : current);
    for (const doc of documents) {
      if (doc.delete) next.delete(doc.key);
      else next.set(doc.key, doc.content ?? '');
    }
    return this.write(namespace, branch, next, 'apply');
  }

  checkpoint(namespace: string, branch: string, name: string): { name: string; revision_id: number } {
    const branches = this.ns(namespace).branches;
    // A branch never written has no head to mark, unless nothing at all was written in the namespace.
    if (!branches.has(branch) && branches.size > 0) throw new ModelError('not_found');
    const revision = this.head(namespace, branch);
    this.ns(namespace).checkpoints.set(name, revision);
    return { name, revision_id: revision };
  }

  deleteCheckpoint(namespace: string, name: string): void {
    if (!this.ns(namespace).checkpoints.delete(name)) throw new ModelError('not_found');
  }

  /** Target selected by checkpoint, else revision of the branch, else head. */
  private select(namespace: string, branch: string, revision: number, checkpoint: string): number {
    const ns = this.ns(namespace);
    if (checkpoint) {
      const id = ns.checkpoints.get(checkpoint);
      if (id === undefined) throw new ModelError('not_found');
      return id;
    }
    if (revision) {
      // The branch's own revisions, and the one it was made from (its base).
      const base = ns.branches.get(branch)?.base === revision && ns.revisions.has(revision);
      if (!base && ns.revisions.get(revision)?.branch !== branch) throw new ModelError('not_found');
      return revision;
    }
    return this.head(namespace, branch);
  }

  stateSelected(
    namespace: string,
    branch: string,
    revision: number,
    checkpoint: string,
  ): { revision: number; objects: Record<string, string> } {
    const id = this.select(namespace, branch, revision, checkpoint);
    return { revision: id, objects: Object.fromEntries(this.stateAt(namespace, id)) };
  }

  diff(
    namespace: string,
    branch: string,
    revision: number,
    checkpoint: string,
  ): { from_revision: number; to_revision: number; changes: Change[] } {
    const id = this.select(namespace, branch, revision, checkpoint);
    const head = this.head(namespace, branch);
    return {
      from_revision: head,
      to_revision: id,
      changes: diffStates(this.stateAt(namespace, head), this.stateAt(namespace, id)),
    };
  }

  rollback(namespace: string, branch: string, revision: number, checkpoint: string): ApplyResponse {
    // A rollback onto a branch never written is refused (a typo must not start a branch).
    if (!this.ns(namespace).branches.has(branch)) throw new ModelError('not_found');
    const id = this.select(namespace, branch, revision, checkpoint);
    const message = this.sourceMessage('rollback to', namespace, id, checkpoint);
    return this.returnTo(namespace, branch, id, message);
  }

  /** A rollback's or restore's own message: where its state came from. */
  private sourceMessage(verb: string, namespace: string, id: number, checkpoint: string): string {
    if (id === 0) return `${verb} checkpoint "${checkpoint}" (revision 0, no documents)`;
    const source = this.ns(namespace).revisions.get(id)?.branch;
    const at = source ? `${source}@${id}` : `revision ${id}`;
    return checkpoint ? `${verb} checkpoint "${checkpoint}" (${at})` : `${verb} ${at}`;
  }

  restore(
    namespace: string,
    branch: string,
    from: { branch: string; revision: number; checkpoint: string },
  ): ApplyResponse {
    const ns = this.ns(namespace);
    let id: number;
    if (from.checkpoint) {
      const found = ns.checkpoints.get(from.checkpoint);
      if (found === undefined) throw new ModelError('not_found');
      id = found;
    } else if (from.branch) {
      const source = ns.branches.get(from.branch);
      if (!source) throw new ModelError('not_found');
      id = source.head;
    } else if (from.revision) {
      if (!ns.revisions.has(from.revision)) throw new ModelError('not_found');
      id = from.revision;
    } else {
      id = this.head(namespace, branch);
    }
    const message = this.sourceMessage('restore from', namespace, id, from.checkpoint);
    return this.returnTo(namespace, branch, id, message);
  }

  createBranch(
    namespace: string,
    scopeBranch: string,
    name: string,
    revision: number,
    checkpoint: string,
  ): { name: string; base_revision: number; head_revision: number } {
    const ns = this.ns(namespace);
    if (ns.branches.has(name)) throw new ModelError('conflict');
    // A source branch never written is a typo, not an empty source.
    if (!ns.branches.has(scopeBranch) && !revision && !checkpoint) throw new ModelError('not_found');
    const base = this.select(namespace, scopeBranch, revision, checkpoint);
    // Revision 0 (a checkpoint taken where nothing was written) belongs to no branch.
    const message =
      base === 0
        ? `branch from checkpoint "${checkpoint}" (revision 0, no documents)`
        : `branch from ${ns.revisions.get(base)!.branch}@${base}`;
    const state = this.stateAt(namespace, base);
    const id = ++ns.counter;
    ns.branches.set(name, { base, head: id });
    ns.revisions.set(id, {
      id,
      branch: name,
      parent: 0,
      message,
      state,
      changes: diffStates(EMPTY, state),
    });
    return { name, base_revision: base, head_revision: id };
  }

  /**
   * Writes revision `id`'s state to `branch`; when `id` is on the branch's own line (or 0), the line
   * restarts there, as a rollback does in docs/store.md ("Back past a merge").
   */
  private returnTo(namespace: string, branch: string, id: number, message: string): ApplyResponse {
    const ownLine = id === 0 || this.onOwnLine(namespace, branch, id);
    const written = this.write(namespace, branch, this.stateAt(namespace, id), message);
    if (ownLine && !written.noop) {
      const restarts = this.ns(namespace).restarts;
      restarts.set(branch, [...(restarts.get(branch) ?? []), { revision: written.revision, target: id }]);
    }
    return written;
  }

  /** Whether the branch's head reaches `id` by its own line: since its last restart, then the restart's target's line or its base's. */
  private onOwnLine(namespace: string, branch: string, id: number): boolean {
    const ns = this.ns(namespace);
    let at: string | undefined = branch;
    let upTo = this.head(namespace, branch);
    while (at !== undefined && upTo !== 0) {
      const restart: Restart | undefined = (ns.restarts.get(at) ?? []).filter((r) => r.revision <= upTo).at(-1);
      const from = restart?.revision ?? 0;
      if (ns.revisions.get(id)?.branch === at && from <= id && id <= upTo) return true;
      const next: number = restart ? restart.target : (ns.branches.get(at)?.base ?? 0);
      if (next === 0 || next >= upTo) return false;
      at = ns.revisions.get(next)?.branch;
      upTo = next;
    }
    return false;
  }

  gc(keep: number): number {
    const perBranch = keep || 10;
    let pruned = 0;
    for (const ns of this.namespaces.values()) {
      const kept = new Set<number>();
      for (const branch of ns.branches.values()) {
        let id = branch.head;
        for (let n = 0; n < perBranch && ns.revisions.has(id); n++) {
          kept.add(id);
          id = ns.revisions.get(id)!.parent;
        }
        if (branch.base) kept.add(branch.base);
      }
      for (const id of ns.checkpoints.values()) if (id) kept.add(id);
      for (const restarts of ns.restarts.values()) for (const { target } of restarts) if (target) kept.add(target);
      for (const id of [...ns.revisions.keys()]) {
        if (!kept.has(id)) {
          ns.revisions.delete(id);
          pruned++;
        }
      }
    }
    return pruned;
  }

  private write(namespace: string, branch: string, next: State, message: string): ApplyResponse {
    const ns = this.ns(namespace);
    const head = this.head(namespace, branch);
    const changes = diffStates(this.stateAt(namespace, head), next);
    if (changes.length === 0) return { revision: head, noop: true, changes: [] };
    const id = ++ns.counter;
    const existing = ns.branches.get(branch);
    if (existing) existing.head = id;
    else ns.branches.set(branch, { base: 0, head: id });
    ns.revisions.set(id, { id, branch, parent: head, message, state: new Map(next), changes });
    return { revision: id, noop: false, changes };
  }
}
