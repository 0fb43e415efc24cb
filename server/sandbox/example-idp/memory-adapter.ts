/**
 * node-oidc-provider's storage, in memory and per provider instance: two providers in one process
 * (the tests start several) never see each other's codes or sessions. oidc-provider's own memory
 * adapter shares one store across instances and announces itself on every start.
 *
 * The interface is oidc-provider's adapter contract (its example/my_adapter.js).
 */

interface Entry {
  payload: Record<string, unknown>;
  /** ms since the epoch; Infinity when the model has no expiry */
  expiresAt: number;
}

const SWEEP_ABOVE = 5_000;

/** The adapter factory to pass as oidc-provider's `adapter` option. */
export function createMemoryAdapter(): new (model: string) => object {
  const entries = new Map<string, Entry>();
  // index → the entry's key
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const read = (key: string): Record<string, unknown> | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  const sweep = (): void => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    for (const index of [byUid, byUserCode]) for (const [name, key] of index) if (!entries.has(key)) index.delete(name);
    for (const [grantId, keys] of byGrant) {
      for (const key of keys) if (!entries.has(key)) keys.delete(key);
      if (keys.size === 0) byGrant.delete(grantId);
    }
  };

  return class MemoryAdapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    key(id: string): string {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      if (entries.size > SWEEP_ABOVE) sweep();
      const key = this.key(id);
      entries.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      if (typeof payload.uid === 'string') byUid.set(payload.uid, key);
      if (typeof payload.userCode === 'string') byUserCode.set(payload.userCode, key);
      if (typeof payload.grantId === 'string') {
        const keys = byGrant.get(payload.grantId) ?? new Set<string>();
        byGrant.set(payload.grantId, keys.add(key));
      }
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return read(this.key(id));
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      const key = byUid.get(uid);
      return key === undefined ? undefined : read(key);
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      const key = byUserCode.get(userCode);
      return key === undefined ? undefined : read(key);
    }

    async consume(id: string): Promise<void> {
      const payload = read(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
      byGrant.delete(grantId);
    }
  };
}
